package io.changelake.beam;

import io.changelake.types.RowKind;
import java.util.Arrays;
import javax.annotation.Nullable;

/**
 * A table row on its way to a bucket writer: its row kind and its values, in table-column order, of
 * the Java classes {@link io.changelake.types.TypeRoot} names.
 *
 * @param kind what the row does to its key
 * @param values the column values
 * @param schemaId the table schema whose columns {@code values} follow: a row mapped before the
 *     table evolved is converted by field id where it is written
 * @param source the offset the row came from (a range of one), or null: see {@link SourcePosition}
 * @param move the id of the move between partitions this row is a half of ({@link
 *     AssignCrossPartitionFn}: the -D in the key's old partition or its row in the new one), or
 *     {@link #NO_MOVE}
 */
record KindedRow(
    RowKind kind, Object[] values, long schemaId, @Nullable PositionRange source, long move) {

  /** The move id of a row that is no half of a move. */
  static final long NO_MOVE = 0;

  KindedRow(RowKind kind, Object[] values, long schemaId) {
    this(kind, values, schemaId, null);
  }

  KindedRow(RowKind kind, Object[] values, long schemaId, @Nullable PositionRange source) {
    this(kind, values, schemaId, source, NO_MOVE);
  }

  /** {@code +U[1001, 10, 80]}: how a dead letter shows the row. */
  @Override
  public String toString() {
    return kind.shortString() + Arrays.deepToString(values);
  }
}
