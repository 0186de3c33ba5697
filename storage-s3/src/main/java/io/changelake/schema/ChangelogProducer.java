package io.changelake.schema;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Who computes the before-image of an update, and when: option {@code changelog-producer}.
 *
 * <table>
 *   <caption>Producers</caption>
 *   <tr><th>value</th><th>changelog</th><th>latency</th></tr>
 *   <tr><td>none</td><td>none: readers see each flush's level-0 rows, never a -U</td><td>a commit</td></tr>
 *   <tr><td>input</td><td>the input records as given: right only if the input is a full changelog</td><td>a commit</td></tr>
 *   <tr><td>lookup</td><td>old values looked up at each commit's compaction</td><td>seconds</td></tr>
 *   <tr><td>full-compaction</td><td>the diff of two full compactions</td><td>minutes</td></tr>
 * </table>
 */
public enum ChangelogProducer {
  NONE("none"),
  INPUT("input"),
  LOOKUP("lookup"),
  FULL_COMPACTION("full-compaction");

  private final String value;

  ChangelogProducer(String value) {
    this.value = value;
  }

  /** The option value. */
  public String value() {
    return value;
  }

  /**
   * The producer an option value names.
   *
   * @throws IllegalArgumentException naming the value and the accepted ones
   */
  public static ChangelogProducer fromValue(String text) {
    for (ChangelogProducer p : values()) {
      if (p.value.equals(text)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "changelog-producer '" + text + "' is unknown: use one of " + accepted());
  }

  static String accepted() {
    return Arrays.stream(values()).map(ChangelogProducer::value).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return value;
  }
}
