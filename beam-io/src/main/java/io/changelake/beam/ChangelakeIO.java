package io.changelake.beam;

/**
 * Beam transforms for changelake tables: Apache Paimon primary-key tables on S3 or local disk, with
 * a correct changelog.
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
 * result.getSettledPositions(); // source offsets the table holds (see SourcePosition)
 * }</pre>
 *
 * <p>Each row is an upsert (or, with a row-kind field, the change it names) of the row with its
 * primary key. Rows reach one writer per bucket; the writers' files are committed by one committer
 * per table, exactly once, even when bundles are retried: in streaming once per commit interval, in
 * batch once at the end (a table written by a bounded input shows one commit). How it works, its
 * metrics and what must stay zero: the package documentation.
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
 *       <td>partition columns of a created table; one outside the primary key makes a cross-partition upsert table (with {@code withBuckets(-1)})</td></tr>
 *   <tr><td>{@code withBuckets(n)}</td><td>1</td><td>buckets per partition of a created table:
 *       the write parallelism; {@code -1} creates a dynamic-bucket table (see below)</td></tr>
 *   <tr><td>{@code withTableOptions(map)}</td><td>none</td><td>options of a created table in
 *       Paimon's names: {@code changelog-producer} (none, input, lookup, full-compaction), {@code
 *       merge-engine}, {@code full-compaction.delta-commits} (counted per bucket batch), ...</td></tr>
 *   <tr><td>{@code withRowKindField(field)}</td><td>none: every row is +I</td><td>a STRING field
 *       holding {@code +I}, {@code -U}, {@code +U} or {@code -D}; other values are dead
 *       letters</td></tr>
 *   <tr><td>{@code withSequenceField(fields...)}</td><td>none</td><td>the fields that order one
 *       key's versions (a log position, a version): a created table gets them as {@code
 *       sequence.field}, an existing table must have exactly these; see Ordering</td></tr>
 *   <tr><td>{@code withArrivalOrder()}</td><td>off</td><td>state that source and runner keep
 *       each key's order, so an unbounded write needs no sequence field</td></tr>
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
 * <p>In an unbounded write, a bucket of a none or input table compacts in the background, as
 * Paimon's streaming writer does: its batch commits what it flushed, a thread beside the writer
 * (one per core of the worker) compacts, and a later batch of the bucket commits the compaction. A
 * writer closed before that (idle, or torn down) cancels it; the files stay for a later one
 * (metrics {@code backgroundCompactionsPending}, {@code ...Dropped}, {@code ...Failed}). A bounded
 * write's batch is the bucket's last, and compacts before it commits, as Paimon's writer does at
 * the end of its input. Lookup, full-compaction and first-row tables always compact before each
 * batch commits, since their changelog comes from the compaction.
 *
 * <h3>Many tables from one write</h3>
 *
 * <pre>{@code
 * // rows: target STRING ("shop.orders"), order_id, amount, customer_id, name, seq INT64, op STRING
 * rows.apply(
 *     ChangelakeIO.write()
 *         .toDestinations(
 *             "s3://warehouse/prefix",
 *             Destination.ofField("target"),
 *             destination -> destination.table().equals("orders")
 *                 ? TableDefinition.of(List.of("order_id", "amount", "seq"), List.of("order_id"))
 *                     .withBuckets(4)
 *                 : TableDefinition.of(List.of("customer_id", "name", "seq"), List.of("customer_id")))
 *         .withRowKindField("op")
 *         .withSequenceField("seq"));
 * }</pre>
 *
 * <p>{@code toDestinations(warehouse, router, definitions)} in place of {@code to(...)} sends each
 * row to the table its router names ({@link Destination#ofField}, or a function of the row), and
 * creates each table on its first row from its {@link TableDefinition}. The rows of every table
 * travel in one {@code PCollection<Row>} whose schema is the union of their columns: a definition
 * names the input fields that are its columns, a row's other fields are not written. The row-kind,
 * sequence and source-position fields are shared. Each table has its own committer and its own
 * commit user, {@code <withCommitUser>-<database>.<table>}. {@code withPrimaryKeys}, {@code
 * withPartitionKeys}, {@code withBuckets}, {@code withTableOptions} (they belong in the definition)
 * and {@code withSchemaEvolution} are refused with it when applied. A row with no destination, and
 * the rows of a destination whose definition fails or does not fit its table (a dynamic-bucket or
 * cross-partition table among them), are dead letters reading {@code destination <db.table>:
 * <reason>}. See {@link ChangelakeWrite#toDestinations}.
 *
 * <h3>Dynamic buckets</h3>
 *
 * <p>A table with {@code bucket} = -1 (Paimon's default for a primary-key table created without a
 * {@code bucket} option; {@code withBuckets(-1)} creates one) gives each key its bucket from the
 * table's hash index, as Paimon does: a key keeps its bucket for ever, and new keys fill buckets up
 * to {@code dynamic-bucket.target-row-num} keys, then open new ones. The write finds out when it is
 * applied (it reads the table's schema, or the one it would create) and adds a bucket-assigner
 * stage keyed by Paimon's assigner of each key, {@code (|partitionHash % n| + |keyHash % n|) % n}
 * with n = {@code dynamic-bucket.initial-buckets} (default 1): n is the assigners' parallelism, so
 * give a table written by a big job a larger one when creating it. Each assigner loads its keys
 * from the latest snapshot's hash index and keeps in Beam state the keys it gave a bucket that no
 * commit holds yet, so a retried bundle or restarted worker never gives a key a second bucket. A
 * pipeline built where the warehouse cannot be read (S3 from a laptop without credentials) cannot
 * tell, and a worker then refuses a dynamic-bucket table, asking for the pipeline to be built where
 * the table can be read.
 *
 * <p>A cross-partition upsert table ({@code bucket} = -1 and a primary key without every partition
 * column, so that a key moves between partitions) gets a key-index stage instead, keyed by the
 * key's hash modulo {@code dynamic-bucket.initial-buckets}: each assigner keeps each key's
 * (partition, bucket), bootstrapped on local disk from the table's latest snapshot and kept in Beam
 * state for the keys it placed, and routes rows by Paimon 1.3.1's rule: under deduplicate a key
 * that moves gets a -D in its old partition and its row in the new one; under partial-update and
 * aggregation it stays in its first partition; under first-row the later row is dropped. The -D and
 * the row of a move land in one snapshot, as Paimon's Flink sink commits them in one checkpoint, so
 * no reader sees the key in two partitions or in none. Such a table has no {@code sequence.field}
 * (Paimon refuses one), so the write names none and an unbounded one needs {@code
 * withArrivalOrder()}; see {@link AssignCrossPartitionFn}.
 *
 * <h3>Ordering</h3>
 *
 * <p>Beam promises no order, and Dataflow, Flink and Spark reorder rows after every shuffle, this
 * write's own included. A table with a sequence field merges each key's versions by it, whatever
 * order they arrive in. An unbounded write without one is refused when applied if its result
 * depends on order (any table but an aggregation of plain rows with order-free functions), naming
 * the fix: {@code withSequenceField(...)}, or {@code withArrivalOrder()} when the source and the
 * runner keep each key's order (the DirectRunner reading an ordered source, a TestStream; a Kafka
 * partition keeps its order only up to the first shuffle). The exact guarantee, across commits and
 * with deletes, is in the package documentation.
 *
 * <h3>Type mapping</h3>
 *
 * <p>Fields map to columns by name; a field's nullability becomes the column's (primary-key columns
 * are NOT NULL). Writing an existing table, a field may fill a column of the type it would create
 * or, for DECIMAL, CHAR/VARCHAR and BINARY/VARBINARY, of another precision, scale or length: a
 * value that does not fit is a dead letter.
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
 *   <tr><td>{@link DynamicColumns#FIELD_TYPE} (one field)</td><td>no column: its entries fill
 *       columns by name, and may evolve the table while the pipeline runs</td></tr>
 *   <tr><td>{@link SourcePosition#FIELD_TYPE} (one field)</td><td>no column: the row's source
 *       position, settled on {@link WriteResult#getSettledPositions()} once the table holds the
 *       row</td></tr>
 *   <tr><td>ARRAY, ITERABLE, MAP, ROW, other logical types</td><td>refused when applied</td></tr>
 * </table>
 *
 * <h2>Reading the rows of a snapshot: {@link #read()}</h2>
 *
 * <pre>{@code
 * PCollection<Row> orders =
 *     pipeline.apply(ChangelakeIO.read()
 *         .from("s3://lake/warehouse", "shop", "orders")
 *         .withColumns("order_id", "amount"));
 * }</pre>
 *
 * <table>
 *   <caption>Options of {@link ReadRows}</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code from(warehouse, database, table)}</td><td>required</td><td>the table</td></tr>
 *   <tr><td>{@code withS3Settings}</td><td>AWS defaults</td><td>endpoint, region, credentials
 *       for an {@code s3://} warehouse</td></tr>
 *   <tr><td>{@code atSnapshot(id)}</td><td>latest</td><td>read that snapshot; a missing one is
 *       an error naming the ids that exist</td></tr>
 *   <tr><td>{@code asOfTimestamp(ms)}</td><td>latest</td><td>the newest snapshot committed at or
 *       before the time</td></tr>
 *   <tr><td>{@code withColumns(...)}</td><td>all</td><td>the columns emitted, in order, and
 *       the only ones read: the others are neither fetched nor decoded</td></tr>
 *   <tr><td>{@code withPartitionFilter(fn)}</td><td>all</td><td>a predicate over a Row of the
 *       partition columns; rejected partitions are never opened</td></tr>
 * </table>
 *
 * <p>One task per (partition, bucket) is read in parallel; each merges its bucket's files by key as
 * the table's merge engine says. Files are read whole: projection trims what is emitted, not what
 * is read, since merging needs every column.
 *
 * <h2>When the table's schema changes under a running read</h2>
 *
 * <p>Both reads emit the columns the table had when the pipeline was built, under the names they
 * had, whatever the table becomes while the pipeline runs: a Beam schema is fixed at construction.
 * Each reader follows those columns into the newest schema by field id, as Paimon matches a file's
 * columns: a renamed column is emitted under its old name, a widened one as before where its Beam
 * type holds the new values (DECIMAL precision up; CHAR, VARCHAR, BINARY, VARBINARY length up), and
 * a column added since is not emitted but counted in the gauge {@code columnsNotEmitted}. An
 * emitted column that is dropped, widened beyond its Beam type (TINYINT, SMALLINT or INT to a wider
 * integer, FLOAT to DOUBLE), or made nullable and then read as null, fails the read with an {@link
 * IllegalStateException} naming the column: rebuild the pipeline, which then reads the new schema.
 *
 * <h2>Reading the changelog: {@link #readChangelog()}</h2>
 *
 * <pre>{@code
 * PCollection<Row> changes =
 *     pipeline.apply(ChangelakeIO.readChangelog()
 *         .from("s3://lake/warehouse", "shop", "orders")
 *         .withConsumerId("store-totals")
 *         .withPollInterval(Duration.ofSeconds(5)));
 * // changes: order_id, store_id, amount, _row_kind ("+I", "-U", "+U", "-D")
 * }</pre>
 *
 * <table>
 *   <caption>Options of {@link ReadChangelog}</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code latestFull()}</td><td>yes</td><td>the latest snapshot's rows as +I, then every
 *       later change</td></tr>
 *   <tr><td>{@code latest()}</td><td></td><td>only changes committed after the start</td></tr>
 *   <tr><td>{@code fromSnapshot(id)}</td><td></td><td>changes of that snapshot and later; an
 *       expired id is an error</td></tr>
 *   <tr><td>{@code fromTimestamp(ms)}</td><td></td><td>changes of snapshots committed at or after
 *       the time</td></tr>
 *   <tr><td>{@code betweenSnapshots(a, b)}</td><td></td><td>bounded: the changes of snapshots
 *       a+1 to b</td></tr>
 *   <tr><td>{@code untilSnapshot(b)}</td><td>unbounded</td><td>stop after snapshot b (waiting
 *       for it); the output is then bounded</td></tr>
 *   <tr><td>{@code withConsumerId(id)}</td><td>none</td><td>record progress in {@code
 *       consumer/consumer-<id>}; a restart resumes there; expiry keeps what it has yet to
 *       read</td></tr>
 *   <tr><td>{@code withPollInterval(d)}</td><td>10 s</td><td>wait between looks for new
 *       snapshots</td></tr>
 *   <tr><td>{@code withRowKindField(name)}</td><td>{@code _row_kind}</td><td>STRING field with
 *       the row kind</td></tr>
 *   <tr><td>{@code withSnapshotIdField(name)}</td><td>absent</td><td>INT64 field with the
 *       snapshot id</td></tr>
 *   <tr><td>{@code withSequenceNumberField(name)}</td><td>absent</td><td>INT64 field with the
 *       sequence number; with the snapshot id it orders the changes of one key</td></tr>
 *   <tr><td>{@code withColumns(...)}, {@code withPartitionFilter(fn)}, {@code
 *       withS3Settings}</td><td>all</td><td>as for {@code read()}</td></tr>
 *   <tr><td>{@code withNormalize()}</td><td>off</td><td>{@code none} tables only: rebuild
 *       -U/+U in Beam state, see below</td></tr>
 *   <tr><td>{@code withRawRows()}</td><td>off</td><td>allow a {@code none} read of a
 *       partial-update, aggregation or first-row table (raw inputs, not merged rows)</td></tr>
 *   <tr><td>{@code withWaitForTable()}</td><td>off</td><td>wait at construction for the table to
 *       be created instead of failing</td></tr>
 * </table>
 *
 * <p>What each snapshot contributes follows the table's {@code changelog-producer}:
 *
 * <table>
 *   <caption>Producers</caption>
 *   <tr><th>producer</th><th>rows</th><th>downstream {@code SUM} after +I(100), +U(80)</th></tr>
 *   <tr><td>lookup, full-compaction</td><td>-U/+U built by the writer</td><td>80</td></tr>
 *   <tr><td>input</td><td>the input as given; right when it carries -U</td><td>80</td></tr>
 *   <tr><td>none</td><td>the newest row per key and flush, no -U</td><td>180</td></tr>
 *   <tr><td>none + {@code withNormalize()}</td><td>-U/+U rebuilt in Beam state</td><td>80</td></tr>
 * </table>
 *
 * <p>A {@code none} read of a partial-update, aggregation or first-row table fails at construction,
 * naming the producer to set, unless {@code withRawRows()} is given.
 *
 * <p><b>The cost of {@code withNormalize()}</b>: one Beam state cell per key ever seen, holding the
 * whole row (deleted keys as tombstones), read and written per change, plus a shuffle by key. The
 * lookup producer pays for the same -U once, in the writer, for every reader; normalize pays it in
 * every reading pipeline, and the state grows with the key count. The state lives in the pipeline:
 * a new pipeline that resumes from a consumer id starts with empty state and emits +I, not -U/+U,
 * for keys it has not seen, so start a normalizing pipeline with {@code latestFull()} (or keep its
 * state with an in-place update) rather than resuming a consumer.
 *
 * <h3>Output schema</h3>
 *
 * The chosen table columns in order, then the row-kind field, then the snapshot-id and
 * sequence-number fields when asked for. A field name that clashes with a column is refused. Each
 * Row's timestamp is its snapshot's commit time; the watermark follows commit times and, when no
 * snapshot comes, the wall clock less 10 s, so windows close on idle tables.
 *
 * <h3>Type mapping</h3>
 *
 * <table>
 *   <caption>Table types and Beam field types (values as in changelake rows)</caption>
 *   <tr><th>table type</th><th>Beam type</th><th>Java value</th></tr>
 *   <tr><td>BOOLEAN</td><td>BOOLEAN</td><td>Boolean</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INT, BIGINT</td><td>BYTE, INT16, INT32, INT64</td>
 *       <td>Byte, Short, Integer, Long</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>FLOAT, DOUBLE</td><td>Float, Double</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>DECIMAL</td><td>BigDecimal</td></tr>
 *   <tr><td>CHAR, VARCHAR, STRING</td><td>STRING</td><td>String</td></tr>
 *   <tr><td>BINARY, VARBINARY, BYTES</td><td>BYTES</td><td>byte[]</td></tr>
 *   <tr><td>DATE</td><td>logical {@code SqlTypes.DATE}</td><td>LocalDate</td></tr>
 *   <tr><td>TIMESTAMP(p)</td><td>logical {@code SqlTypes.DATETIME}</td><td>LocalDateTime</td></tr>
 *   <tr><td>TIMESTAMP(p) WITH LOCAL TIME ZONE</td><td>logical {@code Timestamp(p)}</td>
 *       <td>Instant</td></tr>
 * </table>
 *
 * <p>NOT NULL columns map to non-nullable fields. The operator guide (metrics, errors, restarts) is
 * in the package documentation.
 */
public final class ChangelakeIO {

  private ChangelakeIO() {}

  /** A write of {@code PCollection<Row>} into a table; see the class documentation. */
  public static ChangelakeWrite write() {
    return ChangelakeWrite.create();
  }

  /**
   * A batch read of a table's rows as of one snapshot, with the columns the table has when the
   * pipeline is built (see "When the table's schema changes under a running read" above).
   */
  public static ReadRows read() {
    return ReadRows.create();
  }

  /**
   * A read of a table's changelog: unbounded, or bounded by an end snapshot; it keeps emitting the
   * columns the table had when the pipeline was built, followed by field id while the table changes
   * (see "When the table's schema changes under a running read" above).
   */
  public static ReadChangelog readChangelog() {
    return ReadChangelog.create();
  }

  /**
   * Dedicated compaction of a write-only table, once or on a schedule; see {@link CompactTable}.
   */
  public static CompactTable compact() {
    return CompactTable.create();
  }
}
