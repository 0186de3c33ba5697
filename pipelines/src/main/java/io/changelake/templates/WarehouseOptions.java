package io.changelake.templates;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** Options of every job on a warehouse: where the warehouse is, which database, how to reach S3. */
public interface WarehouseOptions extends PipelineOptions {

  @Description(
      "Warehouse holding the tables: s3://bucket/prefix, file:///path or a local folder. Required.")
  String getWarehouse();

  void setWarehouse(String value);

  @Description("Database of the tables: they live in <warehouse>/<database>.db/<table>/.")
  @Default.String("default")
  String getDatabase();

  void setDatabase(String value);

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
}
