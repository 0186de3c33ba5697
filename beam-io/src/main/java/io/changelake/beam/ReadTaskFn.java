package io.changelake.beam;

import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * Reads one task, the files of one (snapshot, partition, bucket), and emits its records as Rows of
 * the {@link OutputShape}. Each Row keeps the task's timestamp, the snapshot's commit time.
 *
 * <p>Reads under the table's latest schema, followed by field id ({@link OutputShape#follow}):
 * opened at setup, and again when a task holds a file of a newer schema.
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
    use(opened.table());
  }

  private void use(Table table) {
    shape.follow(table.schema(), source.toString());
    // The emitted columns alone are fetched and decoded.
    scan = table.newChangelogScan().withColumns(shape.columnsRead());
  }

  /**
   * Reopens the table at its latest schema if the task holds a file written under a newer schema
   * than this reader's (the table evolved while the pipeline runs).
   */
  private void followSchema(ChangelogTask task) throws IOException {
    long current = opened.table().schema().id();
    if (task.files().stream().anyMatch(f -> f.schemaId() > current)) {
      Table latest = Table.open(opened.store(), opened.table().path());
      opened = new TableReference.Opened(opened.store(), latest);
      use(latest);
    }
  }

  @ProcessElement
  public void processElement(@Element ChangelogTask task, OutputReceiver<Row> out)
      throws IOException {
    followSchema(task);
    try {
      scan.read(
          task,
          change -> {
            ReadMetrics.rows(change.kind()).inc();
            out.output(shape.toRow(change, task.snapshotId()));
          });
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
  public void teardown() {
    Release.quietly("ReadTaskFn: table", opened);
    opened = null;
  }
}
