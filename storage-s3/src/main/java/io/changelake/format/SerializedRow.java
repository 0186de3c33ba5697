package io.changelake.format;

import java.util.Arrays;

/**
 * A row in Paimon's BinaryRow form as manifests store it (partition values, min and max keys,
 * statistics), compared and hashed by content so it can key maps.
 *
 * <p>The array is not copied: never change it after construction.
 */
public final class SerializedRow implements Comparable<SerializedRow> {

  private final byte[] bytes;
  private final int hash;

  public SerializedRow(byte[] bytes) {
    this.bytes = bytes;
    this.hash = Arrays.hashCode(bytes);
  }

  public byte[] bytes() {
    return bytes;
  }

  /**
   * Paimon's {@code BinaryRow#hashCode} of this row (the bytes after the field count): what
   * Paimon's dynamic-bucket assigners spread partitions by.
   */
  public int binaryRowHash() {
    return MurmurHash.hash(bytes, 4, bytes.length - 4);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SerializedRow other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public int compareTo(SerializedRow o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  @Override
  public String toString() {
    return "SerializedRow" + Arrays.toString(bytes);
  }
}
