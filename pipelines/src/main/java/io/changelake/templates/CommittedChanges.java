package io.changelake.templates;

import io.changelake.beam.Release;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.types.KeyValue;
import java.io.IOException;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * The changelog of each snapshot a write committed, as change rows: it turns the snapshots output
 * of {@code ChangelakeIO.write()} into what a reader of the table's changelog would see from those
 * snapshots (what each contributes follows the table's producer).
 *
 * <p>CDC to aggregate uses it rather than {@code ChangelakeIO.readChangelog()} because it chains on
 * the commit itself: a batch run reads exactly the snapshots it wrote and then ends, with no end
 * snapshot to guess and no polling. Deltas are summed, so the order in which snapshots are read
 * does not matter.
 */
final class CommittedChanges extends DoFn<Row, Row> {
  private static final long serialVersionUID = 1L;

  private final String warehouse;
  private final S3Settings s3;
  // TablePath is not serializable: the DoFn carries the names.
  private final String database;
  private final String tableName;
  private final Schema changes;
  private transient ObjectStore store;

  /**
   * @param changes the output schema: table columns by name, then {@link TableColumns#ROW_KIND}
   */
  CommittedChanges(String warehouse, S3Settings s3, TablePath path, Schema changes) {
    this.warehouse = warehouse;
    this.s3 = s3;
    this.database = path.database();
    this.tableName = path.table();
    this.changes = changes;
  }

  @Setup
  public void setup() throws IOException {
    store = ObjectStores.open(warehouse, s3);
  }

  @ProcessElement
  public void process(@Element Row snapshot, OutputReceiver<Row> out) throws IOException {
    // At the latest schema, which may be newer than the last snapshot's (--schemaEvolution).
    Table table = Table.open(store, new TablePath(database, tableName));
    int[] columns =
        changes.getFieldNames().stream()
            .filter(name -> !name.equals(TableColumns.ROW_KIND))
            .mapToInt(table.schema().rowType()::indexOf)
            .toArray();
    ChangelogScan scan = table.newChangelogScan();
    for (ChangelogTask task : scan.changes(snapshot.getInt64("snapshot_id"))) {
      try (ChangelogScan.ChangelogReader records = scan.read(task)) {
        while (records.hasNext()) {
          KeyValue record = records.next();
          Row.Builder row = Row.withSchema(changes);
          for (int column : columns) {
            row.addValue(record.value()[column]);
          }
          out.output(row.addValue(record.kind().shortString()).build());
        }
      }
    }
  }

  @Teardown
  public void teardown() {
    Release.quietly("CommittedChanges: object store", store);
    store = null;
  }
}
