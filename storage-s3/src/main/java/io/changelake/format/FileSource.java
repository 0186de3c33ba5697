package io.changelake.format;

/** Whether a data file was written from input (a flush) or by a compaction. */
public enum FileSource {
  APPEND(0),
  COMPACT(1);

  private final int value;

  FileSource(int value) {
    this.value = value;
  }

  /** The value Paimon stores in {@code _FILE_SOURCE}. */
  public int value() {
    return value;
  }

  public static FileSource fromValue(int value) {
    return value == 1 ? COMPACT : APPEND;
  }
}
