package io.changelake.templates;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** Options every template has: where the warehouse is, how to reach S3, where dead letters go. */
public interface TemplateOptions extends PipelineOptions {

  @Description(
      "Warehouse holding the tables: s3://bucket/prefix, file:///path or a local folder. Required.")
  String getWarehouse();

  void setWarehouse(String value);

  @Description("Database of the tables: they live in <warehouse>/<database>.db/<table>/.")
  @Default.String("default")
  String getDatabase();

  void setDatabase(String value);

  @Description(
      "Folder (any Beam file system) for dead-letter files: one JSON line per bad event or"
          + " refused row, {\"reason\": ..., \"event\": ...}. Required.")
  String getDeadLetterDir();

  void setDeadLetterDir(String value);

  @Description(
      "S3 endpoint URL for S3-compatible services (MinIO, LocalStack, S3Proxy); AWS when absent.")
  String getS3Endpoint();

  void setS3Endpoint(String value);

  @Description("S3 signing region; aws.region / AWS_REGION, else us-east-1, when absent.")
  String getS3Region();

  void setS3Region(String value);

  @Description(
      "Address S3 buckets by path (endpoint/bucket/key), as most S3-compatible services need.")
  @Default.Boolean(false)
  Boolean getS3PathStyleAccess();

  void setS3PathStyleAccess(Boolean value);

  @Description(
      "S3 access key id, with --s3SecretAccessKey; the SDK's default credential chain when absent.")
  String getS3AccessKeyId();

  void setS3AccessKeyId(String value);

  @Description(
      "S3 secret access key, with --s3AccessKeyId. It travels with the pipeline: prefer the"
          + " default credential chain where the workers have one.")
  String getS3SecretAccessKey();

  void setS3SecretAccessKey(String value);

  @Description(
      "Streaming: seconds between commits of the tables written, so the latency of their"
          + " changelog; a bounded run commits once at the end.")
  @Default.Integer(10)
  Integer getCommitIntervalSeconds();

  void setCommitIntervalSeconds(Integer value);
}
