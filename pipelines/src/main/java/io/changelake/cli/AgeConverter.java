package io.changelake.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads an age as people type it: {@code 1d}, {@code 12h}, {@code 30m}, {@code 45s}, or ISO {@code
 * PT1H}.
 */
final class AgeConverter implements ITypeConverter<Duration> {

  private static final Pattern AMOUNT = Pattern.compile("(\\d+)\\s*([dhms])");

  @Override
  public Duration convert(String text) {
    Matcher m = AMOUNT.matcher(text.trim());
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "d" -> Duration.ofDays(n);
        case "h" -> Duration.ofHours(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofSeconds(n);
      };
    }
    try {
      return Duration.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "'" + text + "' is not an age: use a number with d, h, m or s (1d, 12h), or ISO PT1H");
    }
  }
}
