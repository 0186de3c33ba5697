package io.changelake.format;

/** Whether a manifest entry adds a file to the table or removes it. */
public enum FileKind {
  ADD(0),
  DELETE(1);

  private final int value;

  FileKind(int value) {
    this.value = value;
  }

  /** The value Paimon stores in {@code _KIND}. */
  public int value() {
    return value;
  }

  public static FileKind fromValue(int value) {
    switch (value) {
      case 0:
        return ADD;
      case 1:
        return DELETE;
      default:
        throw new IllegalArgumentException("_KIND " + value + " is no file kind (0 or 1)");
    }
  }
}
