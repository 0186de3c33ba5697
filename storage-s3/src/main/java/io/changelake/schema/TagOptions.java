package io.changelake.schema;

import static io.changelake.schema.OptionBounds.atLeast;
import static io.changelake.schema.OptionBounds.none;
import static io.changelake.schema.OptionBounds.oneOf;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The options of automatic tags ({@code tag.*}), declared as {@link ImplementedOptions} declares
 * the others, which lists them last in its manual.
 */
public final class TagOptions {

  private static final Function<String, String> TEXT = Function.identity();

  public static final TableOption<String> TAG_AUTOMATIC_CREATION =
      TableOption.of(
          "tag.automatic-creation",
          "none",
          TEXT,
          oneOf(
              List.of("none", "process-time"),
              " (watermark and batch tags are not implemented and will not be ignored)"),
          "none, or process-time: after each commit, a tag per period passed, named by the period"
              + " (tag.creation-period), on the first snapshot committed after the period's end");

  public static final TableOption<String> TAG_CREATION_PERIOD =
      TableOption.of(
          "tag.creation-period",
          "daily",
          TEXT,
          oneOf(List.of("daily", "hourly", "two-hours"), ""),
          "period of automatic tags: daily, hourly or two-hours");

  public static final TableOption<Duration> TAG_CREATION_PERIOD_DURATION =
      TableOption.derived(
          "tag.creation-period-duration",
          "unset",
          options -> null,
          OptionValues::duration,
          none(),
          "a period of any length instead of tag.creation-period (tags named yyyyMMddHHmm)");

  public static final TableOption<Duration> TAG_CREATION_DELAY =
      TableOption.of(
          "tag.creation-delay",
          "0 ms",
          OptionValues::duration,
          none(),
          "how long after a period's end its tag waits (for late commits); less than a period");

  public static final TableOption<String> TAG_PERIOD_FORMATTER =
      TableOption.of(
          "tag.period-formatter",
          "with_dashes",
          TEXT,
          oneOf(List.of("with_dashes", "without_dashes", "without_dashes_and_spaces"), ""),
          "tag names: 2026-12-01 / 2026-12-01 10 (with_dashes), 20261201 / 20261201 10,"
              + " 20261201 / 2026120110 (without_dashes_and_spaces)");

  public static final TableOption<Integer> TAG_NUM_RETAINED_MAX =
      TableOption.derived(
          "tag.num-retained-max",
          "unlimited",
          options -> null,
          OptionValues::integer,
          atLeast(1),
          "automatic tags beyond which the oldest are deleted (tags made by hand are kept)");

  public static final TableOption<Boolean> TAG_AUTOMATIC_COMPLETION =
      TableOption.of(
          "tag.automatic-completion",
          "false",
          OptionValues::bool,
          none(),
          "after a gap without commits, name the next tag after the period that follows the last"
              + " tag, not after the period of the commit");

  /** The declarations above, in manual order. */
  static final List<TableOption<?>> ALL =
      List.of(
          TAG_AUTOMATIC_CREATION,
          TAG_CREATION_PERIOD,
          TAG_CREATION_PERIOD_DURATION,
          TAG_CREATION_DELAY,
          TAG_PERIOD_FORMATTER,
          TAG_NUM_RETAINED_MAX,
          TAG_AUTOMATIC_COMPLETION);

  private TagOptions() {}
}
