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
 */
record KindedRow(RowKind kind, Object[] values, long schemaId, @Nullable PositionRange source) {

  KindedRow(RowKind kind, Object[] values, long schemaId) {
    this(kind, values, schemaId, null);
  }

  /** {@code +U[1001, 10, 80]}: how a dead letter shows the row. */
  @Override
  public String toString() {
    return kind.shortString() + Arrays.deepToString(values);
  }
}
