package io.changelake.templates;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/**
 * Options every template that writes change rows has: the warehouse ({@link WarehouseOptions}),
 * where dead letters go, how often to commit.
 */
public interface TemplateOptions extends WarehouseOptions {

  @Description(
      "Folder (any Beam file system) for dead-letter files: one JSON line per bad event or"
          + " refused row, {\"reason\": ..., \"event\": ...}. Required.")
  String getDeadLetterDir();

  void setDeadLetterDir(String value);

  @Description(
      "Streaming: seconds between commits of the tables written, so the latency of their"
          + " changelog; a bounded run commits once at the end.")
  @Default.Integer(10)
  Integer getCommitIntervalSeconds();

  void setCommitIntervalSeconds(Integer value);
}
