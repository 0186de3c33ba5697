package io.changelake.beam;

import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.types.KeyValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * Reads one task, the files of one (snapshot, partition, bucket), and emits its records as Rows of
 * the {@link OutputShape}. Each Row keeps the task's timestamp, the snapshot's commit time.
 *
 * <p>A file that cannot be read fails the bundle with a message naming the task's files; the runner
 * retries it, and it never turns into a silent gap.
 */
final class ReadTaskFn extends DoFn<ChangelogTask, Row> {
  private static final long serialVersionUID = 1L;

  private final TableReference source;
  private final OutputShape shape;
  private transient TableReference.Opened opened;
  private transient ChangelogScan scan;

  ReadTaskFn(TableReference source, OutputShape shape) {
    this.source = source;
    this.shape = shape;
  }

  @Setup
  public void setup() throws IOException {
    opened = source.open();
    if (!BeamSchemaMapping.schemaOf(opened.table().schema().rowType())
        .equals(shape.tableSchema())) {
      throw new IllegalStateException(
          "the columns of "
              + source
              + " changed since the pipeline was built (now "
              + opened.table().schema().rowType().names()
              + "): rebuild the pipeline");
    }
    scan = opened.table().newChangelogScan();
  }

  @ProcessElement
  public void processElement(@Element ChangelogTask task, OutputReceiver<Row> out)
      throws IOException {
    try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
      while (reader.hasNext()) {
        KeyValue record = reader.next();
        ReadMetrics.rows(record.kind()).inc();
        out.output(shape.toRow(record, task.snapshotId()));
      }
    } catch (IOException | UncheckedIOException e) {
      throw new IOException(
          "cannot read snapshot "
              + task.snapshotId()
              + ", bucket "
              + task.bucket()
              + " of "
              + source
              + ", files "
              + task.files().stream().map(f -> f.fileName()).toList()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Teardown
  public void teardown() throws IOException {
    if (opened != null) {
      opened.close();
    }
  }
}
