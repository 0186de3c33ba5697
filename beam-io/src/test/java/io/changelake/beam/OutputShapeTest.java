package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.schema.TableSchema;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;

/**
 * The Rows a read emits are the Rows Beam's own builder makes of the same values, whether their
 * values are attached as read (numbers, booleans, strings, decimals) or go through the builder
 * (bytes, dates, timestamps), and they survive Beam's RowCoder.
 */
class OutputShapeTest {

  private static final List<DataField> PLAIN =
      List.of(
          new DataField(0, "id", DataType.bigint().notNull()),
          new DataField(1, "flag", DataType.booleanType()),
          new DataField(2, "tiny", DataType.tinyint()),
          new DataField(3, "small", DataType.smallint()),
          new DataField(4, "n", DataType.intType()),
          new DataField(5, "f", DataType.floatType()),
          new DataField(6, "d", DataType.doubleType()),
          new DataField(7, "price", DataType.decimal(10, 2)),
          new DataField(8, "name", DataType.string()),
          new DataField(9, "code", DataType.charType(3)));

  private static final Object[] PLAIN_VALUES = {
    7L, true, (byte) 1, (short) 2, 3, 4.5f, 6.25, new BigDecimal("12.34"), "seven", "abc"
  };

  @Test
  void rowsOfPlainColumnsAreThoseTheRowBuilderMakes() throws Exception {
    assertSameAsBuilt(PLAIN, PLAIN_VALUES);
  }

  @Test
  void rowsWithBytesDatesAndTimestampsAreThoseTheRowBuilderMakes() throws Exception {
    List<DataField> fields = new ArrayList<>(PLAIN);
    fields.add(new DataField(10, "raw", DataType.bytes()));
    fields.add(new DataField(11, "day", DataType.date()));
    fields.add(new DataField(12, "at", DataType.timestamp(6)));
    List<Object> values = new ArrayList<>(List.of(PLAIN_VALUES));
    values.add(new byte[] {1, 2, 3});
    values.add(LocalDate.of(2026, 12, 6));
    values.add(LocalDateTime.of(2026, 12, 6, 1, 2, 3, 456_789_000));
    assertSameAsBuilt(fields, values.toArray());
  }

  /**
   * The Row of a record holding {@code values}, read with every column and the three metadata
   * fields, equals the builder's Row of the same values, also after a RowCoder round trip; so does
   * the Row of a null in every nullable column.
   */
  private static void assertSameAsBuilt(List<DataField> fields, Object[] values) throws Exception {
    RowType rowType = new RowType(fields);
    OutputShape shape = new OutputShape(rowType, List.of(), "_row_kind", "_snapshot", "_sequence");
    shape.follow(TableSchema.create(rowType, List.of(), List.of("id"), Map.of(), null), "db.table");
    Object[] nulls = new Object[values.length];
    nulls[0] = values[0];
    for (Object[] row : new Object[][] {values, nulls}) {
      Row emitted =
          shape.toRow(new KeyValue(new Object[] {row[0]}, 9L, RowKind.UPDATE_AFTER, row), 4L);
      List<Object> all = new ArrayList<>(Arrays.asList(row));
      all.add("+U");
      all.add(4L);
      all.add(9L);
      Row built = Row.withSchema(shape.schema()).addValues(all).build();
      assertEquals(built, emitted);
      RowCoder coder = RowCoder.of(shape.schema());
      assertEquals(
          built,
          CoderUtils.decodeFromByteArray(coder, CoderUtils.encodeToByteArray(coder, emitted)));
    }
  }
}
