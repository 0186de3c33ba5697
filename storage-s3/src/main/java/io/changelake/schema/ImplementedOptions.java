package io.changelake.schema;

import static io.changelake.schema.OptionBounds.atLeast;
import static io.changelake.schema.OptionBounds.between;
import static io.changelake.schema.OptionBounds.none;
import static io.changelake.schema.OptionBounds.oneOf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Every table option changelake implements, each declared once with Paimon's key and default (where
 * changelake's differs, the description says so): the manual of a table's options. {@link
 * TableOptions} reads them, {@link OptionRules} checks them, and the README's option table lists
 * exactly these ({@code ImplementedOptionsTest} holds it to them). The Paimon options changelake
 * does not implement are decided in {@link OptionRules}.
 */
public final class ImplementedOptions {

  private static final Function<String, String> TEXT = Function.identity();

  // Filled as the fields below are initialised, in their order; before them, so it exists then.
  private static final List<TableOption<?>> DECLARED = new ArrayList<>();

  /**
   * Unset in a stored table means Paimon's default, -1; changelake writes {@code 1} into the tables
   * it creates without the option, so that a bucket count is never chosen by accident.
   */
  public static final TableOption<Integer> BUCKET =
      derived(
          "bucket",
          "1 at creation, else -1",
          options -> -1,
          OptionValues::integer,
          ImplementedOptions::checkBucket,
          "buckets per partition, fixed; -1 is dynamic bucket mode (Paimon's default): a hash index"
              + " gives each key a bucket for ever, new keys fill buckets up to"
              + " dynamic-bucket.target-row-num then open new ones");

  public static final TableOption<Long> DYNAMIC_BUCKET_TARGET_ROW_NUM =
      option(
          "dynamic-bucket.target-row-num",
          "2000000",
          OptionValues::longValue,
          value -> {
            if (value < 1) {
              throw new IllegalArgumentException("must be at least 1, got " + value);
            }
          },
          "keys a bucket takes before new keys open another (bucket = -1)");

  public static final TableOption<Integer> DYNAMIC_BUCKET_INITIAL_BUCKETS =
      option(
          "dynamic-bucket.initial-buckets",
          "1",
          OptionValues::integer,
          atLeast(1),
          "bucket assigners of a writer (Paimon: unset, the assigner parallelism); assigner a of n"
              + " opens only the buckets a, a + n, a + 2n, ... (bucket = -1)");

  public static final TableOption<Integer> CROSS_PARTITION_UPSERT_BOOTSTRAP_PARALLELISM =
      option(
          "cross-partition-upsert.bootstrap-parallelism",
          "10",
          OptionValues::integer,
          atLeast(1),
          "threads reading the table's keys into a writer's key index when it opens, in a"
              + " cross-partition upsert table (a primary key without every partition column)");

  public static final TableOption<Integer> DYNAMIC_BUCKET_MAX_BUCKETS =
      option(
          "dynamic-bucket.max-buckets",
          "-1",
          OptionValues::integer,
          value -> {
            if (value != -1 && value < 1) {
              throw new IllegalArgumentException(
                  "must be -1 (unlimited) or at least 1, got " + value);
            }
          },
          "buckets per partition at most, -1 unlimited; past it new keys go to a random existing"
              + " bucket (bucket = -1)");

  public static final TableOption<List<String>> BUCKET_KEY =
      derived(
          "bucket-key",
          "primary key",
          options -> List.of(),
          OptionValues::list,
          "columns that choose the bucket, a subset of the primary key");

  public static final TableOption<ChangelogProducer> CHANGELOG_PRODUCER =
      option(
          "changelog-producer",
          "none",
          ChangelogProducer::fromValue,
          "who computes the changelog: none, input, lookup, full-compaction");

  public static final TableOption<MergeEngine> MERGE_ENGINE =
      option(
          "merge-engine",
          "deduplicate",
          MergeEngine::fromValue,
          "how the versions of a key combine: deduplicate, partial-update, aggregation, first-row");

  public static final TableOption<String> FILE_COMPRESSION =
      option(
          "file.compression",
          "zstd",
          TEXT,
          oneOf(List.of("zstd", "snappy", "gzip", "lz4", "none"), ""),
          "Parquet codec of data and changelog files");

  public static final TableOption<Integer> ZSTD_LEVEL =
      option(
          "file.compression.zstd-level",
          "1",
          OptionValues::integer,
          between(1, 22),
          "zstd level, 1 (fast) to 22 (small)");

  public static final TableOption<Long> TARGET_FILE_SIZE =
      option(
          "target-file-size",
          "128 mb",
          OptionValues::memorySize,
          "size at which a compaction starts a new file");

  public static final TableOption<Long> WRITE_BUFFER_SIZE =
      option(
          "write-buffer-size",
          "256 mb",
          OptionValues::memorySize,
          "memory the bucket writers of a worker (JVM) buffer together before the largest spills"
              + " or flushes");

  public static final TableOption<Long> PAGE_SIZE =
      option(
          "page-size",
          "64 kb",
          OptionValues::memorySize,
          value -> {
            if (value < 1 || value > 1L << 30) {
              throw new IllegalArgumentException(
                  "must be from 1 b to 1 gb, got " + value + " bytes");
            }
          },
          "the pages a write buffer holds its rows in (a larger row takes a page of its own), as"
              + " Paimon's memory pages; write-buffer-size counts them whole");

  public static final TableOption<Boolean> WRITE_BUFFER_SPILLABLE =
      option(
          "write-buffer-spillable",
          "true",
          OptionValues::bool,
          "spill sorted runs to local disk when the buffer is full");

  public static final TableOption<Integer> SORTED_RUN_COMPACTION_TRIGGER =
      option(
          "num-sorted-run.compaction-trigger",
          "5",
          OptionValues::integer,
          atLeast(2),
          "sorted runs that trigger a compaction");

  public static final TableOption<Integer> SORTED_RUN_STOP_TRIGGER =
      derived(
          "num-sorted-run.stop-trigger",
          "compaction trigger + 3",
          options -> options.sortedRunCompactionTrigger() + 3,
          OptionValues::integer,
          atLeast(2),
          "sorted runs at which writes wait for compaction (never fewer than the trigger)");

  public static final TableOption<Integer> NUM_LEVELS =
      derived(
          "num-levels",
          "compaction trigger + 1",
          options -> options.sortedRunCompactionTrigger() + 1,
          OptionValues::integer,
          atLeast(2),
          "LSM levels");

  public static final TableOption<Integer> MAX_SIZE_AMPLIFICATION_PERCENT =
      option(
          "compaction.max-size-amplification-percent",
          "200",
          OptionValues::integer,
          atLeast(0),
          "size amplification, in percent of the oldest run, that forces a full compaction");

  public static final TableOption<Integer> SIZE_RATIO =
      option(
          "compaction.size-ratio",
          "1",
          OptionValues::integer,
          atLeast(0),
          "percent size difference within which sorted runs are compacted together");

  public static final TableOption<Integer> FULL_COMPACTION_DELTA_COMMITS =
      derived(
          "full-compaction.delta-commits",
          "1 with full-compaction, else none",
          options -> options.changelogProducer() == ChangelogProducer.FULL_COMPACTION ? 1 : null,
          OptionValues::integer,
          atLeast(1),
          "commits between full compactions");

  public static final TableOption<Boolean> LOOKUP_WAIT =
      option("lookup-wait", "true", OptionValues::bool, "a lookup commit waits for its changelog");

  public static final TableOption<Boolean> ROW_DEDUPLICATE =
      option(
          "changelog-producer.row-deduplicate",
          "false",
          OptionValues::bool,
          "emit nothing for an update to an equal row");

  public static final TableOption<List<String>> ROW_DEDUPLICATE_IGNORE_FIELDS =
      option(
          "changelog-producer.row-deduplicate-ignore-fields",
          "",
          OptionValues::list,
          "columns left out of that equality");

  public static final TableOption<Long> LOOKUP_CACHE_MAX_MEMORY_SIZE =
      option(
          "lookup.cache-max-memory-size",
          "256 mb",
          OptionValues::memorySize,
          "heap for looked-up values, shared by the bucket writers of a worker");

  /**
   * Bounded by default, unlike Paimon: unlimited, the copies of a large bucket fill the worker's
   * disk before anything evicts them.
   */
  public static final TableOption<Long> LOOKUP_CACHE_MAX_DISK_SIZE =
      option(
          "lookup.cache-max-disk-size",
          "10 gb",
          OptionValues::memorySize,
          "local disk for lookup copies, shared by the bucket writers of a worker (Paimon:"
              + " unlimited)");

  public static final TableOption<String> LOOKUP_CACHE_SPILL_COMPRESSION =
      option(
          "lookup.cache-spill-compression",
          "zstd",
          value -> value.trim().toLowerCase(Locale.ROOT),
          oneOf(List.of("zstd", "none"), " (Paimon's lz4 and lzo are not implemented)"),
          "compression of the lookup copies' blocks when the memory budget spills them to local disk:"
              + " zstd or none");

  public static final TableOption<Duration> LOOKUP_CACHE_FILE_RETENTION =
      option(
          "lookup.cache-file-retention",
          "1 h",
          OptionValues::duration,
          "a lookup copy unused this long is deleted (rebuilt from its data file when needed)");

  public static final TableOption<String> LOCAL_DIR =
      derived(
          "local-dir",
          "java.io.tmpdir",
          options -> null,
          TEXT,
          "local folder for spilled write buffers and lookup copies (changelake's own option)");

  public static final TableOption<List<String>> SEQUENCE_FIELD =
      option(
          "sequence.field",
          "",
          OptionValues::list,
          "columns that order the versions of a key instead of arrival");

  public static final TableOption<Boolean> IGNORE_DELETE =
      option("ignore-delete", "false", OptionValues::bool, "drop retractions");

  /** Paimon's older keys of {@code ignore-delete}, read in this order when it is unset. */
  public static final List<TableOption<Boolean>> IGNORE_DELETE_FALLBACKS =
      List.of(
          ignoreDeleteFallback("first-row.ignore-delete"),
          ignoreDeleteFallback("deduplicate.ignore-delete"),
          ignoreDeleteFallback("partial-update.ignore-delete"));

  public static final TableOption<Boolean> PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE =
      option(
          "partial-update.remove-record-on-delete",
          "false",
          OptionValues::bool,
          "a -D removes the row (partial-update)");

  public static final TableOption<List<String>> PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP =
      option(
          "partial-update.remove-record-on-sequence-group",
          "",
          OptionValues::list,
          "sequence fields whose group removes the row on a -D");

  public static final TableOption<Boolean> AGGREGATION_REMOVE_RECORD_ON_DELETE =
      option(
          "aggregation.remove-record-on-delete",
          "false",
          OptionValues::bool,
          "a -D removes the row (aggregation)");

  public static final TableOption<String> DEFAULT_AGGREGATE_FUNCTION =
      option(
          "fields.default-aggregate-function",
          "last_non_null_value",
          TEXT,
          OptionBounds.aggregateFunction(),
          "fold of the columns without their own");

  public static final TableOption<String> AGGREGATE_FUNCTION =
      derived(
          "fields.<f>.aggregate-function",
          "fields.default-aggregate-function",
          DEFAULT_AGGREGATE_FUNCTION::valueIn,
          TEXT,
          OptionBounds.aggregateFunction(),
          "the fold of column f (aggregation): " + OptionBounds.aggregateFunctions());

  public static final TableOption<Boolean> IGNORE_RETRACT =
      option(
          "fields.<f>.ignore-retract",
          "false",
          OptionValues::bool,
          "column f ignores retractions (aggregation)");

  public static final TableOption<List<String>> SEQUENCE_GROUP =
      option(
          "fields.<f>.sequence-group",
          "",
          OptionValues::list,
          "columns that f orders (partial-update); f may be several columns:"
              + " fields.a,b.sequence-group");

  public static final TableOption<String> LIST_AGG_DELIMITER =
      option(
          "fields.<f>.list-agg-delimiter",
          ",",
          TEXT,
          "separator of the listagg function of column f");

  public static final TableOption<Boolean> WRITE_ONLY =
      option(
          "write-only",
          "false",
          OptionValues::bool,
          "writers never compact on their own (several writers per bucket; a separate job"
              + " compacts, and produces the lookup or full-compaction changelog)");

  public static final TableOption<Integer> COMMIT_MAX_RETRIES =
      option(
          "commit.max-retries",
          "10",
          OptionValues::integer,
          atLeast(0),
          "attempts a commit makes when another wins the snapshot id");

  public static final TableOption<Duration> COMMIT_MIN_RETRY_WAIT =
      option(
          "commit.min-retry-wait",
          "10 ms",
          OptionValues::duration,
          "shortest wait before a commit retries, and the ceiling of the first wait");

  public static final TableOption<Duration> COMMIT_MAX_RETRY_WAIT =
      option(
          "commit.max-retry-wait",
          "10 s",
          OptionValues::duration,
          "longest wait before a commit retries (the ceiling doubles per retry up to it)");

  public static final TableOption<String> PARTITION_DEFAULT_NAME =
      option(
          "partition.default-name",
          "__DEFAULT_PARTITION__",
          TEXT,
          "folder name of a null partition value");

  /**
   * Every declaration, in manual order: the fields above in their order, then those of retention
   * and automatic tags ({@link RetentionOptions}).
   */
  public static final List<TableOption<?>> ALL = all();

  private ImplementedOptions() {}

  private static List<TableOption<?>> all() {
    List<TableOption<?>> all = new ArrayList<>(DECLARED);
    all.addAll(RetentionOptions.ALL);
    return Collections.unmodifiableList(all);
  }

  private static <T> TableOption<T> option(
      String key,
      String defaultValue,
      Function<String, T> parser,
      OptionBounds<? super T> bounds,
      String description) {
    return declared(TableOption.of(key, defaultValue, parser, bounds, description));
  }

  /** An option whose every parsed value is allowed. */
  private static <T> TableOption<T> option(
      String key, String defaultValue, Function<String, T> parser, String description) {
    return option(key, defaultValue, parser, none(), description);
  }

  private static <T> TableOption<T> derived(
      String key,
      String defaultText,
      Function<TableOptions, T> defaultValue,
      Function<String, T> parser,
      String description) {
    return derived(key, defaultText, defaultValue, parser, none(), description);
  }

  private static <T> TableOption<T> derived(
      String key,
      String defaultText,
      Function<TableOptions, T> defaultValue,
      Function<String, T> parser,
      OptionBounds<? super T> bounds,
      String description) {
    return declared(
        TableOption.derived(key, defaultText, defaultValue, parser, bounds, description));
  }

  private static <T> TableOption<T> declared(TableOption<T> option) {
    DECLARED.add(option);
    return option;
  }

  private static TableOption<Boolean> ignoreDeleteFallback(String key) {
    return option(
        key,
        "false",
        OptionValues::bool,
        "Paimon's older key of ignore-delete, read when it is unset");
  }

  private static void checkBucket(int bucket) {
    if (bucket == -1) {
      return;
    }
    if (bucket == -2) {
      throw new IllegalArgumentException(
          "changelake does not implement postpone bucket mode (bucket = -2) and will not ignore"
              + " it: set a fixed bucket count of at least 1, or use Paimon for this table");
    }
    if (bucket < 1) {
      throw new IllegalArgumentException(
          "bucket must be at least 1, or -1 for dynamic bucket mode, got " + bucket);
    }
  }
}
