package io.changelake.schema;

import static io.changelake.schema.OptionBounds.atLeast;
import static io.changelake.schema.OptionBounds.none;
import static io.changelake.schema.OptionBounds.oneOf;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The options of retention (snapshot expiry, the decoupled changelog lifecycle, consumer expiry,
 * partition expiration) and of automatic tags, declared as {@link ImplementedOptions} declares the
 * others, which lists them last in its manual.
 */
public final class RetentionOptions {

  private static final Function<String, String> TEXT = Function.identity();

  public static final TableOption<Integer> SNAPSHOT_NUM_RETAINED_MIN =
      TableOption.of(
          "snapshot.num-retained.min",
          "10",
          OptionValues::integer,
          atLeast(1),
          "snapshots expiry always keeps");

  public static final TableOption<Integer> SNAPSHOT_NUM_RETAINED_MAX =
      TableOption.derived(
          "snapshot.num-retained.max",
          "unlimited",
          options -> Integer.MAX_VALUE,
          OptionValues::integer,
          atLeast(1),
          "snapshots beyond which expiry removes the oldest");

  public static final TableOption<Duration> SNAPSHOT_TIME_RETAINED =
      TableOption.of(
          "snapshot.time-retained",
          "1 h",
          OptionValues::duration,
          none(),
          "age beyond which expiry removes snapshots");

  public static final TableOption<Integer> SNAPSHOT_EXPIRE_LIMIT =
      TableOption.of(
          "snapshot.expire.limit",
          "50",
          OptionValues::integer,
          atLeast(1),
          "snapshots one expiry run removes at most");

  public static final TableOption<Integer> CHANGELOG_NUM_RETAINED_MIN =
      TableOption.derived(
          "changelog.num-retained.min",
          "snapshot.num-retained.min",
          options -> options.get(SNAPSHOT_NUM_RETAINED_MIN),
          OptionValues::integer,
          atLeast(1),
          "changelogs expiry always keeps, counted from the latest snapshot; above"
              + " snapshot.num-retained.min, an expired snapshot's changelog outlives it");

  public static final TableOption<Integer> CHANGELOG_NUM_RETAINED_MAX =
      TableOption.derived(
          "changelog.num-retained.max",
          "snapshot.num-retained.max",
          options -> options.get(SNAPSHOT_NUM_RETAINED_MAX),
          OptionValues::integer,
          atLeast(1),
          "changelogs beyond which expiry removes the oldest; above snapshot.num-retained.max,"
              + " an expired snapshot's changelog outlives it");

  public static final TableOption<Duration> CHANGELOG_TIME_RETAINED =
      TableOption.derived(
          "changelog.time-retained",
          "snapshot.time-retained",
          options -> options.get(SNAPSHOT_TIME_RETAINED),
          OptionValues::duration,
          none(),
          "age beyond which expiry removes changelogs; above snapshot.time-retained, an expired"
              + " snapshot's changelog outlives it");

  public static final TableOption<Duration> CONSUMER_EXPIRATION_TIME =
      TableOption.derived(
          "consumer.expiration-time",
          "never",
          options -> null,
          OptionValues::duration,
          none(),
          "consumers not updated for this long are removed by expiry");

  public static final TableOption<Duration> PARTITION_EXPIRATION_TIME =
      TableOption.derived(
          "partition.expiration-time",
          "unset",
          options -> null,
          OptionValues::duration,
          none(),
          "age beyond which a partition is dropped after a commit (an OVERWRITE snapshot that"
              + " deletes its files); unset, none is");

  public static final TableOption<Duration> PARTITION_EXPIRATION_CHECK_INTERVAL =
      TableOption.of(
          "partition.expiration-check-interval",
          "1 h",
          OptionValues::duration,
          none(),
          "how often a committer looks for expired partitions; the first look comes one interval"
              + " after it starts, 0 looks at every commit");

  public static final TableOption<String> PARTITION_EXPIRATION_STRATEGY =
      TableOption.of(
          "partition.expiration-strategy",
          "values-time",
          TEXT,
          oneOf(
              List.of("values-time", "update-time"),
              " (custom strategies are not implemented and will not be ignored)"),
          "a partition's age: values-time from its values (partition.timestamp-pattern and"
              + " -formatter), update-time from its newest data file");

  public static final TableOption<Integer> PARTITION_EXPIRATION_MAX_NUM =
      TableOption.of(
          "partition.expiration-max-num",
          "100",
          OptionValues::integer,
          atLeast(1),
          "partitions one expiry drops at most, the first by their values");

  public static final TableOption<String> PARTITION_TIMESTAMP_FORMATTER =
      TableOption.derived(
          "partition.timestamp-formatter",
          "unset",
          options -> null,
          TEXT,
          none(),
          "java.time pattern of the partition time text, such as yyyyMMdd; unset, yyyy-MM-dd with"
              + " an optional HH:mm:ss");

  public static final TableOption<String> PARTITION_TIMESTAMP_PATTERN =
      TableOption.derived(
          "partition.timestamp-pattern",
          "unset",
          options -> null,
          TEXT,
          none(),
          "the partition time text made of partition columns, such as $dt $hour:00:00; unset,"
              + " the first partition column");

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
          SNAPSHOT_NUM_RETAINED_MIN,
          SNAPSHOT_NUM_RETAINED_MAX,
          SNAPSHOT_TIME_RETAINED,
          SNAPSHOT_EXPIRE_LIMIT,
          CHANGELOG_NUM_RETAINED_MIN,
          CHANGELOG_NUM_RETAINED_MAX,
          CHANGELOG_TIME_RETAINED,
          CONSUMER_EXPIRATION_TIME,
          PARTITION_EXPIRATION_TIME,
          PARTITION_EXPIRATION_CHECK_INTERVAL,
          PARTITION_EXPIRATION_STRATEGY,
          PARTITION_EXPIRATION_MAX_NUM,
          PARTITION_TIMESTAMP_FORMATTER,
          PARTITION_TIMESTAMP_PATTERN,
          TAG_AUTOMATIC_CREATION,
          TAG_CREATION_PERIOD,
          TAG_CREATION_PERIOD_DURATION,
          TAG_CREATION_DELAY,
          TAG_PERIOD_FORMATTER,
          TAG_NUM_RETAINED_MAX,
          TAG_AUTOMATIC_COMPLETION);

  private RetentionOptions() {}
}
