package io.changelake.format;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much of a column's statistics a data file's metadata keeps, as Paimon's {@code
 * metadata.stats-mode} option says it.
 *
 * <table>
 *   <caption>Modes</caption>
 *   <tr><th>mode</th><th>keeps</th></tr>
 *   <tr><td>{@code none}</td><td>nothing</td></tr>
 *   <tr><td>{@code counts}</td><td>the null count</td></tr>
 *   <tr><td>{@code truncate(n)}</td><td>null count, min and max; strings cut to n code points
 *     (Paimon's default for value columns is {@code truncate(16)}, for key columns always
 *     {@code truncate(128)})</td></tr>
 *   <tr><td>{@code full}</td><td>null count, min and max</td></tr>
 * </table>
 *
 * <p>A truncated min is the first n code points of the min. A truncated max is the first n code
 * points with the last code point that can be incremented incremented (later ones dropped), so it
 * stays above every value; when none can be, min and max are both dropped, as Paimon does.
 *
 * @param kind which mode
 * @param truncateLength the code points kept by {@link Kind#TRUNCATE}; 0 for the other modes
 */
public record StatsMode(Kind kind, int truncateLength) {

  /** The modes Paimon names. */
  public enum Kind {
    NONE,
    COUNTS,
    TRUNCATE,
    FULL
  }

  /** Paimon's default for value columns. */
  public static final StatsMode DEFAULT = new StatsMode(Kind.TRUNCATE, 16);

  /** What Paimon keeps for key columns, whatever the table's stats mode. */
  public static final StatsMode KEY = new StatsMode(Kind.TRUNCATE, 128);

  private static final Pattern TRUNCATE = Pattern.compile("truncate\\((\\d+)\\)");

  public StatsMode {
    if ((kind == Kind.TRUNCATE) != (truncateLength > 0)) {
      throw new IllegalArgumentException(
          "a stats mode has a positive truncate length exactly when it is TRUNCATE, got "
              + kind
              + " with "
              + truncateLength);
    }
  }

  /**
   * Parses Paimon's form: {@code none}, {@code counts}, {@code full} or {@code truncate(n)}, any
   * case.
   *
   * @throws IllegalArgumentException naming the text if it is none of these
   */
  public static StatsMode parse(String text) {
    String mode = text.trim().toLowerCase(Locale.ROOT);
    Matcher truncate = TRUNCATE.matcher(mode);
    if (truncate.matches() && Integer.parseInt(truncate.group(1)) > 0) {
      return new StatsMode(Kind.TRUNCATE, Integer.parseInt(truncate.group(1)));
    }
    switch (mode) {
      case "none":
        return new StatsMode(Kind.NONE, 0);
      case "counts":
        return new StatsMode(Kind.COUNTS, 0);
      case "full":
        return new StatsMode(Kind.FULL, 0);
      default:
        throw new IllegalArgumentException(
            "'" + text + "' is not a stats mode: use none, counts, full or truncate(n) with n > 0");
    }
  }

  /** What this mode keeps of a column's full statistics. */
  public ColumnStats apply(ColumnStats full) {
    switch (kind) {
      case NONE:
        return new ColumnStats(null, null, null);
      case COUNTS:
        return new ColumnStats(null, null, full.nullCount());
      case FULL:
        return full;
      default:
        if (!(full.min() instanceof String) || !(full.max() instanceof String)) {
          return full;
        }
        String max = truncateMax((String) full.max());
        if (max == null) {
          return new ColumnStats(null, null, full.nullCount());
        }
        return new ColumnStats(truncateMin((String) full.min()), max, full.nullCount());
    }
  }

  private String truncateMin(String value) {
    return value.codePointCount(0, value.length()) <= truncateLength
        ? value
        : value.substring(0, value.offsetByCodePoints(0, truncateLength));
  }

  private String truncateMax(String value) {
    if (value.codePointCount(0, value.length()) <= truncateLength) {
      return value;
    }
    for (int kept = truncateLength - 1; kept >= 0; kept--) {
      int offset = value.offsetByCodePoints(0, kept);
      int next = value.codePointAt(offset) + 1;
      if (Character.isValidCodePoint(next)) {
        return new StringBuilder(value.substring(0, offset)).appendCodePoint(next).toString();
      }
    }
    return null;
  }

  /** Paimon's form, the inverse of {@link #parse}. */
  @Override
  public String toString() {
    return kind == Kind.TRUNCATE
        ? "truncate(" + truncateLength + ")"
        : kind.name().toLowerCase(Locale.ROOT);
  }
}
