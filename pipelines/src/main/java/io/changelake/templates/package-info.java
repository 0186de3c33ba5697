/**
 * Template pipelines: a flow each, launched with {@code ./changelake run <name> --option=value ...}
 * (DirectRunner unless {@code --runner} names another), or through a template's {@code main}.
 *
 * <table>
 *   <caption>Templates</caption>
 *   <tr><th>name</th><th>class</th><th>does</th></tr>
 *   <tr><td>cdc-to-table</td><td>{@link io.changelake.templates.CdcToTable}</td>
 *       <td>Debezium JSON change events, from files or Kafka, into a table</td></tr>
 *   <tr><td>changelog-to-aggregate</td><td>{@link io.changelake.templates.ChangelogToAggregate}</td>
 *       <td>a table's changelog into grouped SUM, COUNT, AVG with retraction</td></tr>
 *   <tr><td>cdc-to-aggregate</td><td>{@link io.changelake.templates.CdcToAggregate}</td>
 *       <td>both in one pipeline</td></tr>
 * </table>
 *
 * <p>Each has an Options interface whose every option is described ({@code ./changelake run <name>
 * --help} lists them), a {@code run(options)} entry that checks the options before it builds
 * anything (a wrong option fails at launch with a message naming it and the fix), a dead-letter
 * output ({@code --deadLetterDir}: one JSON line per bad event or refused row, with the reason; the
 * pipeline goes on), and Dataflow Flex Template metadata beside it on the class path, {@code
 * templates/<name>.json}.
 *
 * <p>{@code ./changelake run} takes a template's name or its class's simple name ({@code
 * CdcToTable}).
 *
 * <p>Order: every change event's source position (binlog file and position, LSN, ...; see {@code
 * EventPosition}) is stored in the STRING column {@code _sequence}, which is the {@code
 * sequence.field} of the tables the CDC templates create, so a key's changes merge in the order the
 * database made them on any runner, however the runner reorders them. An event without any position
 * is a dead letter.
 *
 * <p>Exactly-once from Kafka: the consumer group's offsets are committed by the template only up to
 * records whose change is in a committed snapshot of the table (or in the dead letters), with the
 * table and its commit identifier in the offset's metadata (in the database mode of {@code
 * CdcToTable} each topic feeds its own table, whose identifiers are its own), so a new job started
 * from the group's offsets re-reads every event the table may lack, and re-applying one the table
 * holds changes nothing ({@code _sequence}: the newest wins, an equal one is the same change). See
 * {@code KafkaSource} and {@code OffsetTracker}. In {@code cdc-to-aggregate} the offsets follow the
 * {@code --table} commit, not the aggregate's, and need not: the aggregate follows the table's
 * snapshots, recording in its own commits the last one it applied, so a run stopped between the two
 * commits is made good by the next run, once (see {@code CdcToAggregate} for the assumptions).
 *
 * <p>Operating the Kafka templates: a partition whose offset is held shows in the metrics {@code
 * heldPartitions}, {@code heldOffsets} and {@code heldMillis} of {@code changelake.templates} (see
 * {@code OffsetTracker}); the aggregate's progress in {@code aggregateSnapshotsApplied} and {@code
 * aggregateSnapshotsBehind}.
 */
package io.changelake.templates;
