package io.changelake.beam;

/**
 * Beam transforms for changelake tables: Apache Paimon primary-key tables on S3 or local disk,
 * with a correct changelog.
 *
 * <h2>Writing</h2>
 *
 * <pre>{@code
 * PCollection<Row> orders = ...; // order_id INT64, store_id INT64, amount INT64, op STRING
 * WriteResult result =
 *     orders.apply(
 *         ChangelakeIO.write()
 *             .to("s3://warehouse/prefix", "shop", "orders")
 *             .withPrimaryKeys(List.of("order_id"))
 *             .withBuckets(4)
 *             .withTableOptions(Map.of("changelog-producer", "lookup"))
 *             .withRowKindField("op"));
 * result.getSnapshots();   // one Row per snapshot committed
 * result.getDeadLetters(); // BadRecord per row that could not be written, with the reason
 * }</pre>
 *
 * <p>Each row is an upsert (or, with a row-kind field, the change it names) of the row with its
 * primary key. Rows reach one writer per bucket; the writers' files are committed by one
 * committer per table, exactly once, even when bundles are retried: in streaming once per commit
 * interval, in batch once at the end (a table written by a bounded input shows one commit). How
 * it works, its metrics and what must stay zero: the package documentation.
 *
 * <table>
 *   <caption>Write settings</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code to(warehouse, database, table)}</td><td>required</td>
 *       <td>the table at {@code <warehouse>/<database>.db/<table>/}; warehouse {@code
 *       s3://bucket/prefix}, {@code file:///path} or a local path</td></tr>
 *   <tr><td>{@code withPrimaryKeys(keys)}</td><td>none: the table must exist</td>
 *       <td>create the table if missing, with these primary keys and the input's fields (but the
 *       row-kind field) as columns; an existing table is written as it is</td></tr>
 *   <tr><td>{@code withPartitionKeys(keys)}</td><td>unpartitioned</td>
 *       <td>partition columns of a created table; they must be in the primary key</td></tr>
 *   <tr><td>{@code withBuckets(n)}</td><td>1</td><td>buckets per partition of a created table:
 *       the write parallelism</td></tr>
 *   <tr><td>{@code withTableOptions(map)}</td><td>none</td><td>options of a created table in
 *       Paimon's names: {@code changelog-producer} (none, input, lookup, full-compaction), {@code
 *       merge-engine}, {@code full-compaction.delta-commits} (counted per bucket batch), ...</td></tr>
 *   <tr><td>{@code withRowKindField(field)}</td><td>none: every row is +I</td><td>a STRING field
 *       holding {@code +I}, {@code -U}, {@code +U} or {@code -D}; other values are dead
 *       letters</td></tr>
 *   <tr><td>{@code withS3Settings(settings)}</td><td>AWS, default credential chain</td>
 *       <td>endpoint, region, path-style access, static credentials, retries for an {@code s3://}
 *       warehouse ({@link io.changelake.store.S3Settings})</td></tr>
 *   <tr><td>{@code withCommitInterval(d)}</td><td>10 s</td><td>streaming: time between
 *       commits, so also the changelog's latency; ignored for bounded input</td></tr>
 *   <tr><td>{@code withMaxBatchRows(n)}</td><td>100,000</td><td>streaming: most rows of one
 *       bucket written as one batch (a bucket's batch is also cut at the commit interval)</td></tr>
 *   <tr><td>{@code withCommitUser(id)}</td><td>random per pipeline construction</td><td>the
 *       {@code commitUser} of the snapshots; keep it across updates of one job, never share it
 *       between running jobs</td></tr>
 *   <tr><td>{@code withBadRecordErrorHandler(h)}</td><td>none</td><td>also send the dead letters
 *       to a Beam {@code ErrorHandler}</td></tr>
 * </table>
 *
 * <p>Settings are checked when the transform is applied; a message names the setting to fix.
 *
 * <h3>Type mapping</h3>
 *
 * <p>Fields map to columns by name; a field's nullability becomes the column's (primary-key columns
 * are NOT NULL). Writing an existing table, a field may fill a column of the type it would create
 * or, for DECIMAL, CHAR/VARCHAR and BINARY/VARBINARY, of another precision, scale or length: a value
 * that does not fit is a dead letter.
 *
 * <table>
 *   <caption>Beam field type to column type</caption>
 *   <tr><th>Beam</th><th>column</th></tr>
 *   <tr><td>BOOLEAN</td><td>BOOLEAN</td></tr>
 *   <tr><td>BYTE, INT16, INT32, INT64</td><td>TINYINT, SMALLINT, INT, BIGINT</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>FLOAT, DOUBLE</td></tr>
 *   <tr><td>DECIMAL</td><td>DECIMAL(38, 18)</td></tr>
 *   <tr><td>logical {@code FixedPrecisionNumeric(p, s)}</td><td>DECIMAL(p, s)</td></tr>
 *   <tr><td>STRING; logical {@code FixedString(n)}, {@code VariableString(n)}</td>
 *       <td>STRING; CHAR(n), VARCHAR(n)</td></tr>
 *   <tr><td>BYTES; logical {@code FixedBytes(n)}, {@code VariableBytes(n)}</td>
 *       <td>BYTES; BINARY(n), VARBINARY(n)</td></tr>
 *   <tr><td>logical {@code SqlTypes.DATE}</td><td>DATE</td></tr>
 *   <tr><td>logical {@code SqlTypes.DATETIME}</td><td>TIMESTAMP(9)</td></tr>
 *   <tr><td>DATETIME (Joda instant, milliseconds)</td><td>TIMESTAMP(3) WITH LOCAL TIME ZONE</td></tr>
 *   <tr><td>logical {@code SqlTypes.TIMESTAMP} (micros instant)</td>
 *       <td>TIMESTAMP(6) WITH LOCAL TIME ZONE</td></tr>
 *   <tr><td>ARRAY, ITERABLE, MAP, ROW, other logical types</td><td>refused when applied</td></tr>
 * </table>
 */
public final class ChangelakeIO {

  private ChangelakeIO() {}

  /** A write of {@code PCollection<Row>} into a table; see the class documentation. */
  public static ChangelakeWrite write() {
    return new ChangelakeWrite();
  }
}
