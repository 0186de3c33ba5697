package io.changelake.types;

/**
 * The kind of change a row stands for, with the byte Paimon stores in {@code _VALUE_KIND}.
 *
 * <p>+I and +U add a row ("add"); -U and -D retract one ("retract").
 */
public enum RowKind {
  /** +I: a new row. */
  INSERT("+I", (byte) 0),
  /** -U: the old image of an updated row; a retraction. */
  UPDATE_BEFORE("-U", (byte) 1),
  /** +U: the new image of an updated row. */
  UPDATE_AFTER("+U", (byte) 2),
  /** -D: a deleted row; a retraction. */
  DELETE("-D", (byte) 3);

  private static final RowKind[] BY_VALUE = values();

  private final String shortString;
  private final byte value;

  RowKind(String shortString, byte value) {
    this.shortString = shortString;
    this.value = value;
  }

  /** {@code +I}, {@code -U}, {@code +U} or {@code -D}. */
  public String shortString() {
    return shortString;
  }

  /** The byte stored in {@code _VALUE_KIND}. */
  public byte toByteValue() {
    return value;
  }

  /** Whether the row adds (+I, +U) rather than retracts (-U, -D). */
  public boolean isAdd() {
    return this == INSERT || this == UPDATE_AFTER;
  }

  public static RowKind fromByteValue(byte value) {
    if (value < 0 || value >= BY_VALUE.length) {
      throw new IllegalArgumentException("_VALUE_KIND " + value + " is not a row kind (0 to 3)");
    }
    return BY_VALUE[value];
  }

  /**
   * The kind named by {@code +I}, {@code -U}, {@code +U} or {@code -D}.
   *
   * @throws IllegalArgumentException naming the text otherwise
   */
  public static RowKind fromShortString(String text) {
    for (RowKind kind : BY_VALUE) {
      if (kind.shortString.equals(text)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not a row kind: use +I, -U, +U or -D");
  }
}
