package io.changelake.schema;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses option values in the forms Paimon accepts: sizes ({@code 128 mb}), durations ({@code 1
 * h}).
 */
final class OptionValues {

  private static final Pattern AMOUNT = Pattern.compile("\\s*(\\d+)\\s*([a-zA-Z]*)\\s*");

  private OptionValues() {}

  /** Bytes from {@code 256 mb}, {@code 64kb}, {@code 1 gb}, {@code 1024} (bytes). */
  static long memorySize(String text) {
    Matcher m = AMOUNT.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a size such as '128 mb', got '" + text + "'");
    }
    long amount = Long.parseLong(m.group(1));
    switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "":
      case "b":
      case "bytes":
        return amount;
      case "k":
      case "kb":
      case "kibibytes":
        return amount << 10;
      case "m":
      case "mb":
      case "mebibytes":
        return amount << 20;
      case "g":
      case "gb":
      case "gibibytes":
        return amount << 30;
      case "t":
      case "tb":
        return amount << 40;
      default:
        throw new IllegalArgumentException(
            "unknown size unit '" + m.group(2) + "' in '" + text + "': use b, kb, mb, gb or tb");
    }
  }

  /** A duration from {@code 1 h}, {@code 30 min}, {@code 10 s}, {@code 500 ms}, {@code 7 d}. */
  static Duration duration(String text) {
    Matcher m = AMOUNT.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a duration such as '1 h', got '" + text + "'");
    }
    long amount = Long.parseLong(m.group(1));
    switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "ms":
      case "milli":
      case "millis":
        return Duration.ofMillis(amount);
      case "":
      case "s":
      case "sec":
      case "secs":
      case "second":
      case "seconds":
        return Duration.ofSeconds(amount);
      case "m":
      case "min":
      case "mins":
      case "minute":
      case "minutes":
        return Duration.ofMinutes(amount);
      case "h":
      case "hour":
      case "hours":
        return Duration.ofHours(amount);
      case "d":
      case "day":
      case "days":
        return Duration.ofDays(amount);
      default:
        throw new IllegalArgumentException(
            "unknown time unit '" + m.group(2) + "' in '" + text + "': use ms, s, min, h or d");
    }
  }

  static boolean bool(String text) {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException("expected true or false, got '" + text + "'");
    }
  }

  static int integer(String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a whole number, got '" + text + "'");
    }
  }

  static long longValue(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a whole number, got '" + text + "'");
    }
  }

  /** A comma-separated list; empty text is an empty list. */
  static List<String> list(String text) {
    if (text.isBlank()) {
      return List.of();
    }
    return Arrays.stream(text.split(",")).map(String::trim).toList();
  }
}
