package io.changelake.beam;

import io.changelake.schema.SchemaChange;
import io.changelake.table.BucketAssigner;
import io.changelake.table.CrossPartitionUpsert;
import io.changelake.table.HashBucketAssigner;
import io.changelake.table.SchemaConflictException;
import io.changelake.table.Table;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;

/**
 * The first stage's view of one table ({@link AssignBucketFn} holds one per destination): the open
 * table, the mapping of its rows, and the assigner that gives each row its bucket (or, in a
 * dynamic-bucket or cross-partition table, its assigner's key).
 *
 * <p>Opening it creates the table if it is missing (create-if-absent: a writer that loses the race
 * opens the winner's table) and checks the table against the write: the sequence fields, the bucket
 * mode the pipeline was built for, and that the rows' fields fit its columns.
 */
final class TableAssigner implements AutoCloseable {

  /** Alters lost to other workers' before this one gives up; each loss means the schema moved. */
  private static final int MAX_ALTER_ATTEMPTS = 20;

  private final Destinations.Target target;
  private final String rowKindField;
  private final boolean evolve;
  private final TableReference.BucketMode mode;

  private TableReference.Opened opened;
  private RowMapping mapping;
  private BucketAssigner assigner;
  private HashBucketAssigner hashAssigner;
  private CrossPartitionUpsert keyAssigners;

  private TableAssigner(
      Destinations.Target target,
      String rowKindField,
      boolean evolve,
      TableReference.BucketMode mode,
      TableReference.Opened opened) {
    this.target = target;
    this.rowKindField = rowKindField;
    this.evolve = evolve;
    this.mode = mode;
    this.opened = opened;
  }

  /**
   * Opens (and, if it is missing, creates) the target's table.
   *
   * @throws IllegalStateException if the table orders its keys by other sequence fields, or has
   *     another bucket mode than {@code mode}, naming the fix
   * @throws IllegalArgumentException if the rows' fields do not fit its columns
   */
  static TableAssigner open(
      Destinations.Target target,
      String rowKindField,
      List<String> sequenceFields,
      boolean evolve,
      TableReference.BucketMode mode,
      boolean many)
      throws IOException {
    TableReference.Opened opened = target.reference().open();
    try {
      Table table = opened.table();
      String location = target.reference().location();
      List<String> tableSequence = table.schema().options().sequenceFields();
      if (sequenceFields != null && !sequenceFields.equals(tableSequence)) {
        throw new IllegalStateException(
            "ChangelakeIO.write().withSequenceField("
                + String.join(",", sequenceFields)
                + "): table "
                + location
                + " orders its keys' versions by sequence.field "
                + (tableSequence.isEmpty() ? "(none)" : String.join(",", tableSequence))
                + "; name the table's own sequence fields, or write a table that has these");
      }
      TableReference.BucketMode tableMode = target.reference().bucketMode(table.schema());
      if (tableMode != mode) {
        throw new IllegalStateException(
            "ChangelakeIO.write(): table "
                + location
                + " has 'bucket' = "
                + table.options().bucket()
                + " ("
                + tableMode
                + ") but "
                + (many
                    ? "the many-table write (toDestinations) writes only tables of " + mode
                    : "the pipeline was built for "
                        + mode
                        + " (built before the table existed, or where it could not be read):"
                        + " build the pipeline again where the table can be read"));
      }
      TableAssigner assigner = new TableAssigner(target, rowKindField, evolve, mode, opened);
      assigner.useSchema(table);
      return assigner;
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  private void useSchema(Table table) {
    mapping =
        RowMapping.of(
            target.input(),
            rowKindField,
            table.schema().rowType(),
            table.schema().id(),
            table.location());
    switch (mode) {
      case FIXED -> assigner = new BucketAssigner(table.schema(), table.location());
      case DYNAMIC -> hashAssigner = table.newHashBucketAssigner(0);
      case CROSS_PARTITION ->
          // Only its assignerOf is used, which reads nothing: the folder is never created.
          keyAssigners =
              table.newCrossPartitionUpsert(
                  0, Path.of(System.getProperty("java.io.tmpdir"), "unused-" + UUID.randomUUID()));
    }
  }

  /**
   * The row (of the write's input) as a table row, with its bucket id or its assigner's key.
   *
   * @throws IllegalArgumentException naming what does not fit, which makes the row a dead letter
   */
  KV<String, KindedRow> assign(Row row) throws IOException {
    Row own = target.project(row);
    fitDynamicColumns(own);
    KindedRow kinded = mapping.map(own);
    String bucket =
        switch (mode) {
          case FIXED -> assigner.assign(kinded.values()).id();
          case DYNAMIC -> AssignHashBucketFn.keyOf(hashAssigner.assignerOf(kinded.values()));
          case CROSS_PARTITION ->
              AssignCrossPartitionFn.keyOf(keyAssigners.assignerOf(kinded.values()));
        };
    return KV.of(bucket, kinded);
  }

  /**
   * Brings the mapping to a schema the row's dynamic columns fit: the table's latest, altered first
   * under {@code withSchemaEvolution()}. Another worker's alter landing first is no error: the
   * changes are worked out again on its schema.
   *
   * @throws IllegalArgumentException naming what does not fit, which makes the row a dead letter
   */
  private void fitDynamicColumns(Row row) throws IOException {
    Map<String, Row> dynamic = mapping.dynamicColumns(row);
    if (dynamic.isEmpty() || fit(dynamic, opened.table()).changes().isEmpty()) {
      return;
    }
    for (int attempt = 1; ; attempt++) {
      Table latest = Table.open(opened.store(), opened.table().path());
      SchemaFit fit = fit(dynamic, latest);
      if (!fit.changes().isEmpty()) {
        if (!evolve) {
          throw new IllegalArgumentException(
              "the row's dynamic columns would need "
                  + fit.changes().stream().map(SchemaChange::describe).toList()
                  + ": write with withSchemaEvolution() to apply them");
        }
        try {
          latest = latest.alter(fit.changes());
          WriteMetrics.SCHEMA_CHANGES.inc();
        } catch (SchemaConflictException raced) {
          if (attempt >= MAX_ALTER_ATTEMPTS) {
            throw new IllegalStateException(
                "table " + target.reference() + " kept changing its schema while evolving it",
                raced);
          }
          continue;
        }
      }
      opened = new TableReference.Opened(opened.store(), latest);
      useSchema(latest);
      return;
    }
  }

  /**
   * How the dynamic columns fit the table; a refusal (a kind change, a key column's type) stands on
   * every later schema too, since no alter changes a column's kind.
   */
  private static SchemaFit fit(Map<String, Row> dynamic, Table table) {
    SchemaFit fit = SchemaFit.ofDynamic(dynamic, table.schema());
    if (!fit.refusals().isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", fit.refusals()));
    }
    return fit;
  }

  @Override
  public void close() {
    Release.quietly("AssignBucketFn: key assigners", keyAssigners);
    keyAssigners = null;
    Release.quietly("AssignBucketFn: table", opened);
    opened = null;
  }
}
