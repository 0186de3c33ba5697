package io.changelake.mergetree;

import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.types.ChangeRow;
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
 *
 * <p>Not thread-safe: a view emitted under another kind goes through one wrapper the rule reuses,
 * so each compaction rewriter, which runs on one thread at a time, has a rule of its own.
 */
final class ChangelogRule {

  /**
   * Receives the changelog records, in order: each valid until the next is given (a version read as
   * a view comes as a view, with the kind the rule gives it).
   */
  interface Sink {
    void accept(ChangeRow changelog) throws IOException;
  }

  private final boolean insertOnly;
  private final boolean rowDeduplicate;
  private final boolean[] compared;

  // The version emitted under another kind, when it is a view: one at a time reaches the sink.
  private final RekindedRow rekinded = new RekindedRow();

  ChangelogRule(TableOptions options, RowType rowType) {
    this.insertOnly = options.mergeEngine() == MergeEngine.FIRST_ROW;
    this.rowDeduplicate = options.changelogRowDeduplicate();
    List<String> ignored = options.changelogRowDeduplicateIgnoreFields();
    this.compared = new boolean[rowType.size()];
    for (int i = 0; i < compared.length; i++) {
      compared[i] = !ignored.contains(rowType.field(i).name());
    }
  }

  /**
   * Emits the changelog of one key, from its row before (null when it had none) and after (null
   * when it has none); either may be a view, valid while this method runs.
   */
  void emit(ChangeRow before, ChangeRow after, Sink sink) throws IOException {
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
    if (rowDeduplicate && sameRow(before, after)) {
      return;
    }
    sink.accept(withKind(before, RowKind.UPDATE_BEFORE));
    sink.accept(withKind(after, RowKind.UPDATE_AFTER));
  }

  private boolean sameRow(ChangeRow a, ChangeRow b) {
    for (int i = 0; i < compared.length; i++) {
      if (compared[i] && !Objects.deepEquals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** The row under {@code kind}: a key-value of its own, a view rekinded until the next call. */
  private ChangeRow withKind(ChangeRow row, RowKind kind) {
    if (row.kind() == kind) {
      return row;
    }
    if (row instanceof KeyValue kv) {
      return new KeyValue(kv.key(), kv.sequenceNumber(), kind, kv.value());
    }
    return rekinded.of(row, kind);
  }
}
