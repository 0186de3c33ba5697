package io.changelake.mergetree;

/**
 * A write buffer's records in key order, one at a time, as the buffer holds them: the records in
 * memory, or a spill read back ({@link BufferSpill}). A record's key and row are BinaryRows in
 * {@link #bytes()}, valid until the next {@link #advance}.
 */
interface BufferRun {

  /** Moves to the next record; false at the end. */
  boolean advance();

  long sequenceNumber();

  /** The record's kind, as {@link io.changelake.types.RowKind#toByteValue}. */
  byte kind();

  /** The key's value, when the key is one integral column. */
  long integralKey();

  byte[] bytes();

  /** Where the key's BinaryRow starts in {@link #bytes()}, when the key is not integral. */
  int keyStart();

  /** The key's BinaryRow's length; 0 for an integral key. */
  int keyLength();

  int rowStart();

  int rowLength();
}
