package io.changelake.templates;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.StreamingOptions;

/** Options of the templates that read change-event files into a table. */
public interface CdcOptions extends TemplateOptions, StreamingOptions {

  @Description(
      "Glob of the change-event files, one Debezium JSON event a line (any Beam file system)."
          + " Required.")
  String getInputFilePattern();

  void setInputFilePattern(String value);

  @Description(
      "Keep watching --inputFilePattern for new files and run until cancelled; without it the"
          + " files present at start are read once and the pipeline ends.")
  @Override
  boolean isStreaming();

  @Override
  void setStreaming(boolean value);

  @Description("Streaming: seconds between looks for new files.")
  @Default.Integer(10)
  Integer getFilePollIntervalSeconds();

  void setFilePollIntervalSeconds(Integer value);

  @Description("The table the changes are written into, created if missing. Required.")
  String getTable();

  void setTable(String value);

  @Description(
      "Columns of the table as name:TYPE, comma-separated; types BOOLEAN, INT, BIGINT, DOUBLE,"
          + " STRING. Example: order_id:BIGINT,store_id:BIGINT,amount:BIGINT. Required.")
  String getColumns();

  void setColumns(String value);

  @Description("Primary-key columns of the table, comma-separated. Required.")
  String getPrimaryKeys();

  void setPrimaryKeys(String value);

  @Description(
      "Changelog producer of the table: none, input, lookup or full-compaction. lookup is right"
          + " whatever the events carry; input only when updates carry before-images.")
  @Default.String("lookup")
  String getProducer();

  void setProducer(String value);

  @Description("Buckets of the table: its write parallelism.")
  @Default.Integer(1)
  Integer getBuckets();

  void setBuckets(Integer value);

  @Description(
      "More table options as key=value pairs separated by ';', in Paimon's names (for example"
          + " full-compaction.delta-commits=4).")
  String getTableOptions();

  void setTableOptions(String value);
}
