package io.changelake.templates;

import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.WriteResult;
import io.changelake.store.S3Settings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;

/**
 * Keeps {@code SUM(value)}, {@code COUNT(value)} and so {@code AVG(value)} per group, with
 * retraction, from change rows that carry the group column, the value column and {@code _row_kind}.
 *
 * <p>Each change becomes a signed delta, {@code (group, +value, +1)} for +I/+U and {@code (group,
 * -value, -1)} for -U/-D (a null value contributes nothing, as SQL's SUM and COUNT skip nulls),
 * written as an insert into the aggregate table: an aggregation-engine table keyed by the group
 * column, with columns {@code sum_<value>} and {@code cnt} whose {@code aggregate-function} is
 * {@code sum}, so the table adds the deltas up. The aggregate table's own {@code
 * changelog-producer} is {@code lookup}: a reader of its changelog sees {@code -U(old totals),
 * +U(new totals)} per group and commit, again a correct changelog.
 *
 * <p>AVG is not stored: it is {@code sum_<value> / cnt} on read, because a stored average cannot be
 * updated from a delta without the totals. A group whose count falls to 0 keeps a row with {@code
 * cnt = 0} (and AVG undefined). Integer values are summed as BIGINT, DOUBLE values as DOUBLE.
 */
final class AggregateChanges extends PTransform<PCollection<Row>, WriteResult> {
  private static final long serialVersionUID = 1L;

  /** The count column of the aggregate table. */
  static final String COUNT = "cnt";

  private final String warehouse;
  private final String database;
  private final String table;
  private final String groupColumn;
  private final String valueColumn;
  private final int buckets;
  private final S3Settings s3;
  private final Duration commitInterval;

  AggregateChanges(AggregateOptions options) {
    this.warehouse = options.getWarehouse();
    this.database = options.getDatabase();
    this.table = options.getAggregateTable();
    this.groupColumn = options.getGroupColumn();
    this.valueColumn = options.getValueColumn();
    this.buckets = options.getAggregateBuckets();
    this.s3 = OptionChecks.s3Settings(options);
    this.commitInterval = Duration.standardSeconds(options.getCommitIntervalSeconds());
  }

  /** The sum column of the aggregate table for a value column. */
  static String sumColumn(String valueColumn) {
    return "sum_" + valueColumn;
  }

  /** The options of the aggregate table: sums of signed deltas, with a lookup changelog. */
  static Map<String, String> tableOptions(String valueColumn) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("merge-engine", "aggregation");
    options.put("fields." + sumColumn(valueColumn) + ".aggregate-function", "sum");
    options.put("fields." + COUNT + ".aggregate-function", "sum");
    options.put("changelog-producer", "lookup");
    return options;
  }

  @Override
  public WriteResult expand(PCollection<Row> changes) {
    Schema input = changes.getSchema();
    boolean doubles = summedAsDouble(input.getField(valueColumn).getType());
    Schema deltas =
        Schema.builder()
            .addField(
                Schema.Field.of(groupColumn, input.getField(groupColumn).getType())
                    .withNullable(true))
            .addField(sumColumn(valueColumn), doubles ? FieldType.DOUBLE : FieldType.INT64)
            .addInt64Field(COUNT)
            .build();
    return changes
        .apply(
            "SignedDeltas", ParDo.of(new SignedDeltaFn(groupColumn, valueColumn, doubles, deltas)))
        .setRowSchema(deltas)
        .apply(
            "WriteAggregate",
            ChangelakeIO.write()
                .to(warehouse, database, table)
                .withPrimaryKeys(List.of(groupColumn))
                .withBuckets(buckets)
                .withTableOptions(tableOptions(valueColumn))
                .withS3Settings(s3)
                .withCommitInterval(commitInterval));
  }

  private boolean summedAsDouble(FieldType type) {
    switch (type.getTypeName()) {
      case BYTE:
      case INT16:
      case INT32:
      case INT64:
        return false;
      case FLOAT:
      case DOUBLE:
        return true;
      default:
        throw new IllegalArgumentException(
            "--valueColumn="
                + valueColumn
                + " is not valid: the column is "
                + type.getTypeName()
                + "; name an INT, BIGINT or DOUBLE column");
    }
  }

  private static final class SignedDeltaFn extends DoFn<Row, Row> {
    private static final long serialVersionUID = 1L;

    private final String groupColumn;
    private final String valueColumn;
    private final boolean doubles;
    private final Schema deltas;

    SignedDeltaFn(String groupColumn, String valueColumn, boolean doubles, Schema deltas) {
      this.groupColumn = groupColumn;
      this.valueColumn = valueColumn;
      this.doubles = doubles;
      this.deltas = deltas;
    }

    @ProcessElement
    public void process(@Element Row change, OutputReceiver<Row> out) {
      Number value = (Number) change.getValue(valueColumn);
      if (value == null) {
        return;
      }
      long sign = sign(change.getString(TableColumns.ROW_KIND));
      // Not a conditional expression: it would promote the long to double.
      Object sum;
      if (doubles) {
        sum = sign * value.doubleValue();
      } else {
        sum = sign * value.longValue();
      }
      // The group's value comes from a built row, the sum and sign are the deltas' own types.
      out.output(Row.withSchema(deltas).attachValues(change.getValue(groupColumn), sum, sign));
    }
  }

  /** The sign of a change's delta: +1 for +I and +U, -1 for -U and -D. */
  static long sign(String kind) {
    switch (kind) {
      case "+I":
      case "+U":
        return 1;
      case "-U":
      case "-D":
        return -1;
      default:
        throw new IllegalStateException("a change row has row kind '" + kind + "'");
    }
  }
}
