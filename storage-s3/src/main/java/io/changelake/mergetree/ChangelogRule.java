package io.changelake.mergetree;

import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * What the lookup and full-compaction producers emit for one key, given the row it had (BEFORE, or
 * TOP for full compaction) and the row it has now (AFTER, the merged result). One rule serves both
 * producers:
 *
 * <table>
 *   <caption>Emitted changelog</caption>
 *   <tr><th>before</th><th>after</th><th>emitted</th></tr>
 *   <tr><td>absent or retract</td><td>add</td><td>+I(after)</td></tr>
 *   <tr><td>absent or retract</td><td>retract or absent</td><td>nothing</td></tr>
 *   <tr><td>add</td><td>retract or absent</td><td>-D(before)</td></tr>
 *   <tr><td>add</td><td>add, different (or row-deduplicate off)</td><td>-U(before), +U(after)</td></tr>
 *   <tr><td>add</td><td>add, equal, row-deduplicate on</td><td>nothing</td></tr>
 * </table>
 *
 * <p>The first-row engine is insert-only: a key that already had a row emits nothing, a new key its
 * first row with the kind it was written with.
 */
final class ChangelogRule {

  /** Receives the changelog records, in order. */
  interface Sink {
    void accept(KeyValue changelog) throws IOException;
  }

  private final boolean insertOnly;
  private final boolean rowDeduplicate;
  private final boolean[] compared;

  ChangelogRule(TableOptions options, RowType rowType) {
    this.insertOnly = options.mergeEngine() == MergeEngine.FIRST_ROW;
    this.rowDeduplicate = options.changelogRowDeduplicate();
    List<String> ignored = options.changelogRowDeduplicateIgnoreFields();
    this.compared = new boolean[rowType.size()];
    for (int i = 0; i < compared.length; i++) {
      compared[i] = !ignored.contains(rowType.field(i).name());
    }
  }

  void emit(KeyValue before, KeyValue after, Sink sink) throws IOException {
    boolean hadRow = before != null && before.kind().isAdd();
    boolean hasRow = after != null && after.kind().isAdd();
    if (!hadRow) {
      if (hasRow) {
        // first-row emits the new row as it is stored (a +U stays +U), as Paimon's
        // FirstRowMergeFunctionWrapper does; the other engines emit +I.
        sink.accept(insertOnly ? after : withKind(after, RowKind.INSERT));
      }
      return;
    }
    if (insertOnly) {
      return;
    }
    if (!hasRow) {
      sink.accept(withKind(before, RowKind.DELETE));
      return;
    }
    if (rowDeduplicate && sameRow(before.value(), after.value())) {
      return;
    }
    sink.accept(withKind(before, RowKind.UPDATE_BEFORE));
    sink.accept(withKind(after, RowKind.UPDATE_AFTER));
  }

  private boolean sameRow(Object[] a, Object[] b) {
    for (int i = 0; i < compared.length; i++) {
      if (compared[i] && !Objects.deepEquals(a[i], b[i])) {
        return false;
      }
    }
    return true;
  }

  private static KeyValue withKind(KeyValue kv, RowKind kind) {
    return kv.kind() == kind ? kv : new KeyValue(kv.key(), kv.sequenceNumber(), kind, kv.value());
  }
}
