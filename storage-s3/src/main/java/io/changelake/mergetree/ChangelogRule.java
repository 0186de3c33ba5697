package io.changelake.mergetree;

import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
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
 * <p>Immutable: a version emitted under another kind than its own goes to the sink as it is, with
 * that kind beside it, so a rule is shared between threads and nothing is built per change.
 */
final class ChangelogRule {

  /**
   * Receives the changelog records, in order: each a version of the key and the kind it is emitted
   * under, which is not always the version's own (the -U of a stored +I). A version read as a view
   * comes as that view, valid until the next is given.
   */
  interface Sink {
    void accept(ChangeRow version, RowKind kind) throws IOException;
  }

  private final boolean insertOnly;
  private final boolean rowDeduplicate;
  private final boolean[] compared;
  private final TypeRoot[] roots;
  private final RowComparator order;

  ChangelogRule(TableOptions options, RowType rowType) {
    this.insertOnly = options.mergeEngine() == MergeEngine.FIRST_ROW;
    this.rowDeduplicate = options.changelogRowDeduplicate();
    List<String> ignored = options.changelogRowDeduplicateIgnoreFields();
    this.compared = new boolean[rowType.size()];
    this.roots = new TypeRoot[rowType.size()];
    this.order = new RowComparator(rowType);
    for (int i = 0; i < compared.length; i++) {
      compared[i] = !ignored.contains(rowType.field(i).name());
      roots[i] = rowType.type(i).root();
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
        sink.accept(after, insertOnly ? after.kind() : RowKind.INSERT);
      }
      return;
    }
    if (insertOnly) {
      return;
    }
    if (!hasRow) {
      sink.accept(before, RowKind.DELETE);
      return;
    }
    if (rowDeduplicate && sameRow(before, after)) {
      return;
    }
    sink.accept(before, RowKind.UPDATE_BEFORE);
    sink.accept(after, RowKind.UPDATE_AFTER);
  }

  private boolean sameRow(ChangeRow a, ChangeRow b) {
    for (int i = 0; i < compared.length; i++) {
      if (compared[i] && !sameValue(i, a, b)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether column {@code i} holds the same value in both rows, as {@link Objects#deepEquals} of
   * their values says; BIGINT, INT, SMALLINT, TINYINT, DOUBLE, FLOAT and BOOLEAN values compared
   * unboxed.
   */
  private boolean sameValue(int i, ChangeRow a, ChangeRow b) {
    return switch (roots[i]) {
      // Their order's ties are their equals' (Double.compare: -0.0 before 0.0, NaN equal to NaN).
      case BIGINT, INT, SMALLINT, TINYINT, DOUBLE, FLOAT, BOOLEAN ->
          order.compareField(i, a, b) == 0;
      default -> Objects.deepEquals(a.get(i), b.get(i));
    };
  }
}
