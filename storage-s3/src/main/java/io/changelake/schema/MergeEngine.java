package io.changelake.schema;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How the records of one key combine: option {@code merge-engine}. */
public enum MergeEngine {
  /** The last record by sequence wins; a final retraction removes the key. */
  DEDUPLICATE("deduplicate"),
  /** Non-null fields overwrite; nulls keep the old value. */
  PARTIAL_UPDATE("partial-update"),
  /** Each column folds with its {@code fields.<f>.aggregate-function}. */
  AGGREGATION("aggregation"),
  /** The first record of a key is kept; later ones are dropped. */
  FIRST_ROW("first-row");

  private final String value;

  MergeEngine(String value) {
    this.value = value;
  }

  /** The option value. */
  public String value() {
    return value;
  }

  /**
   * The engine an option value names.
   *
   * @throws IllegalArgumentException naming the value and the accepted ones
   */
  public static MergeEngine fromValue(String text) {
    for (MergeEngine e : values()) {
      if (e.value.equals(text)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "merge-engine '"
            + text
            + "' is unknown: use one of "
            + Arrays.stream(values()).map(MergeEngine::value).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return value;
  }
}
