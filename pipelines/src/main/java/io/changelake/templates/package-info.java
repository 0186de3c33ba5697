/**
 * Template pipelines: a flow each, launched with {@code ./changelake run <name> --option=value
 * ...} (DirectRunner unless {@code --runner} names another), or through a template's {@code main}.
 *
 * <table>
 *   <caption>Templates</caption>
 *   <tr><th>name</th><th>class</th><th>does</th></tr>
 *   <tr><td>cdc-to-table</td><td>{@link io.changelake.templates.CdcToTable}</td>
 *       <td>Debezium JSON change-event files into a table</td></tr>
 *   <tr><td>changelog-to-aggregate</td><td>{@link io.changelake.templates.ChangelogToAggregate}</td>
 *       <td>a table's changelog into grouped SUM, COUNT, AVG with retraction</td></tr>
 *   <tr><td>cdc-to-aggregate</td><td>{@link io.changelake.templates.CdcToAggregate}</td>
 *       <td>both in one pipeline</td></tr>
 * </table>
 *
 * <p>Each has an Options interface whose every option is described ({@code ./changelake run
 * <name> --help} lists them), a {@code run(options)} entry that checks the options before it
 * builds anything (a wrong option fails at launch with a message naming it and the fix), a
 * dead-letter output ({@code --deadLetterDir}: one JSON line per bad event or refused row, with the
 * reason; the pipeline goes on), and Dataflow Flex Template metadata beside it on the class path,
 * {@code templates/<name>.json}.
 *
 * <p>Known limit: within one commit, the changes of one key are applied in the order they reach
 * the writer. The DirectRunner keeps a file's line order; a distributed runner may not, and the
 * templates do not yet carry a per-event sequence (a {@code sequence.field} from the event's
 * position or LSN) to restore it.
 */
package io.changelake.templates;
