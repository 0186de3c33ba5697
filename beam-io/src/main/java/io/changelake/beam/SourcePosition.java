package io.changelake.beam;

import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * Where a row came from in its source, for a source that commits its own read position only once
 * the table holds what it read (Kafka's consumer-group offsets, a queue's acknowledgements): a
 * {@code partition} of the source (a Kafka topic-partition, a shard) and an {@code offset} in it.
 *
 * <p>An input field of type {@link #FIELD_TYPE} is no column: the write carries its value beside
 * the row, summarises the positions of each bucket's batch into ranges, and, once the snapshot
 * holding the batch is committed, emits them on {@link WriteResult#getSettledPositions()}. A row
 * the write refuses (a dead letter) settles its position too, without a commit. A source may then
 * commit, per partition, the longest run of settled offsets from where it last committed: every row
 * past that point is either in a committed snapshot or in the dead letters, so a restart from it
 * loses nothing (and re-reads rows the table may already hold: give the write a sequence field so
 * that re-applying them is harmless). A row whose field is null has no position.
 */
public final class SourcePosition {

  /** The value of the field: {@code partition} and {@code offset}. */
  public static final Schema SCHEMA =
      Schema.builder().addStringField("partition").addInt64Field("offset").build();

  /** The type of the input field that carries a row's source position. */
  public static final FieldType FIELD_TYPE = FieldType.row(SCHEMA).withNullable(true);

  /**
   * The schema of {@link WriteResult#getSettledPositions()}: {@code table} (location), {@code
   * partition}, the range {@code first_offset} to {@code last_offset} (both in; some offsets of the
   * range may be ones the source never had), and {@code commit_identifier}, the identifier of the
   * table commit that holds the rows, or null for rows the write refused or that changed nothing.
   */
  public static final Schema SETTLED_SCHEMA =
      Schema.builder()
          .addStringField("table")
          .addStringField("partition")
          .addInt64Field("first_offset")
          .addInt64Field("last_offset")
          .addNullableInt64Field("commit_identifier")
          .build();

  private SourcePosition() {}

  /** The value of a position field. */
  public static Row of(String partition, long offset) {
    return Row.withSchema(SCHEMA).addValues(partition, offset).build();
  }

  /**
   * A {@link #SETTLED_SCHEMA} row for one position whose row the table will never hold (refused, or
   * skipped by the source's own parsing): settled at once, with no commit identifier.
   *
   * @param position a value of a position field, or null for none
   * @return the settled row, or null if there is no position
   */
  public static Row settledWithoutCommit(String table, Row position) {
    if (position == null) {
      return null;
    }
    long offset = position.getInt64("offset");
    return settled(table, new PositionRange(position.getString("partition"), offset, offset), null);
  }

  /** A {@link #SETTLED_SCHEMA} row: the range is in the commit {@code identifier}, or in none. */
  static Row settled(String table, PositionRange range, Long identifier) {
    return Row.withSchema(SETTLED_SCHEMA)
        .addValues(table, range.partition(), range.first(), range.last(), identifier)
        .build();
  }

  /** Whether {@code type} is {@link #FIELD_TYPE}, nullable or not. */
  static boolean isField(FieldType type) {
    return type.withNullable(true).equals(FIELD_TYPE);
  }

  /** The index of the input's position field, or -1 if it has none. */
  static int fieldIndex(Schema input) {
    for (int i = 0; i < input.getFieldCount(); i++) {
      if (isField(input.getField(i).getType())) {
        return i;
      }
    }
    return -1;
  }
}
