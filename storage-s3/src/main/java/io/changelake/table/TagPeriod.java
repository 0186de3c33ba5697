package io.changelake.table;

import io.changelake.schema.RetentionOptions;
import io.changelake.schema.TableOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;

/**
 * The period of automatic tags and how a tag is named after it, as Paimon 1.3.1 names them: {@code
 * tag.creation-period} (daily, hourly, two-hours) or {@code tag.creation-period-duration}, and
 * {@code tag.period-formatter}. A tag's name is its period's start: {@code 2026-12-01} (daily),
 * {@code 2026-12-01 10} (hourly and two-hours), {@code 20261201} / {@code 20261201 10} (without
 * dashes), {@code 2026120110} (without dashes and spaces), {@code 202612011030} (a period
 * duration). Times are the table's local date-times, in the JVM's time zone as in Paimon.
 */
final class TagPeriod {

  private final Duration length;
  private final DateTimeFormatter names;
  private final boolean daily;

  private TagPeriod(Duration length, DateTimeFormatter names, boolean daily) {
    this.length = length;
    this.names = names;
    this.daily = daily;
  }

  /** The period the table's options give. */
  static TagPeriod of(TableOptions options) {
    Duration duration = options.get(RetentionOptions.TAG_CREATION_PERIOD_DURATION);
    if (duration != null) {
      return new TagPeriod(duration, format(false, false, true, true), false);
    }
    String formatter = options.get(RetentionOptions.TAG_PERIOD_FORMATTER);
    boolean dashes = formatter.equals("with_dashes");
    boolean space = !formatter.equals("without_dashes_and_spaces");
    return switch (options.get(RetentionOptions.TAG_CREATION_PERIOD)) {
      case "hourly" ->
          new TagPeriod(Duration.ofHours(1), format(dashes, space, true, false), false);
      // Paimon names two-hour tags with dashes whatever the formatter says.
      case "two-hours" ->
          new TagPeriod(Duration.ofHours(2), format(true, true, true, false), false);
      default -> new TagPeriod(Duration.ofDays(1), format(dashes, false, false, false), true);
    };
  }

  private static DateTimeFormatter format(
      boolean dashes, boolean space, boolean hour, boolean minute) {
    DateTimeFormatterBuilder b = new DateTimeFormatterBuilder().appendValue(ChronoField.YEAR, 4);
    if (dashes) {
      b.appendLiteral('-');
    }
    b.appendValue(ChronoField.MONTH_OF_YEAR, 2);
    if (dashes) {
      b.appendLiteral('-');
    }
    b.appendValue(ChronoField.DAY_OF_MONTH, 2);
    if (hour) {
      if (space && !minute) {
        b.appendLiteral(' ');
      }
      b.appendValue(ChronoField.HOUR_OF_DAY, 2);
    }
    if (minute) {
      b.appendValue(ChronoField.MINUTE_OF_HOUR, 2);
    }
    return b.toFormatter().withResolverStyle(ResolverStyle.STRICT);
  }

  Duration length() {
    return length;
  }

  /** The name of the tag of the period starting at {@code start}. */
  String name(LocalDateTime start) {
    return start.format(names);
  }

  /** The start of the period a tag names, or null if the name is not an automatic tag's. */
  LocalDateTime start(String name) {
    try {
      // A daily tag is read by its date; the rest of the name, after a space, is ignored.
      return daily
          ? LocalDate.parse(name.split(" ", -1)[0], names).atStartOfDay()
          : LocalDateTime.parse(name, names);
    } catch (DateTimeParseException notAnAutomaticTag) {
      return null;
    }
  }

  /**
   * The period a commit at {@code time} closes: the one before the period {@code time} falls in.
   * Periods are counted from the epoch in the local calendar, as Paimon counts them.
   */
  LocalDateTime previousStart(LocalDateTime time) {
    long millis = time.toInstant(ZoneOffset.UTC).toEpochMilli();
    long period = length.toMillis();
    Instant start = Instant.ofEpochMilli(Math.floorDiv(millis, period) * period);
    return LocalDateTime.ofInstant(start, ZoneOffset.UTC).minus(length);
  }
}
