package io.changelake.schema;

import io.changelake.types.RowType;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;

/**
 * The options of a table, stored in its schema file, with Paimon's names and defaults.
 *
 * <p>{@link #validate} rejects an unknown option, a value of the wrong form and a combination that
 * cannot work, with a message that names the option and the fix; a table is created only with
 * options that pass it. A table another engine created may hold any Paimon option: {@link
 * #checkSupported} refuses it, before changelake writes, reads, expires or cleans it, when an
 * option asks for behaviour changelake does not implement.
 *
 * <p>Every option changelake implements is declared once, with its default, form, bounds and
 * meaning, in {@link ImplementedOptions} (the manual of the options; the README's table lists the
 * same); the accessors below read through those declarations. Which of Paimon's other options are
 * harmless, accepted at one value only, or refused is decided in {@link OptionRules}, with the
 * reason.
 */
public final class TableOptions {

  /**
   * The aggregate functions of the aggregation engine: Paimon 1.3's, less those over types
   * changelake lacks (arrays, maps, rows, sketches). Paimon 1.3 has no {@code count}: a table
   * naming it could not be read by Paimon. {@code first_not_null_value} is Paimon's old name of
   * {@code first_non_null_value}.
   */
  public static final Set<String> AGGREGATE_FUNCTIONS =
      Set.of(
          "sum",
          "product",
          "min",
          "max",
          "last_value",
          "last_non_null_value",
          "first_value",
          "first_non_null_value",
          "first_not_null_value",
          "listagg",
          "bool_and",
          "bool_or");

  private final Map<String, String> options;

  private TableOptions(Map<String, String> options) {
    this.options = Collections.unmodifiableMap(new TreeMap<>(options));
  }

  /** The options as stored, without validation: for tables read from storage. */
  public static TableOptions of(Map<String, String> options) {
    return new TableOptions(options);
  }

  /**
   * Checks options for a new table with these columns and keys.
   *
   * @throws IllegalArgumentException naming the first option that is unknown, malformed or in a
   *     combination that cannot work, and the fix
   */
  public static TableOptions validate(
      Map<String, String> options, RowType rowType, List<String> primaryKeys) {
    for (Map.Entry<String, String> option : options.entrySet()) {
      OptionRules.check(option.getKey(), option.getValue());
      Matcher field = OptionRules.FIELD_OPTION.matcher(option.getKey());
      if (field.matches()) {
        try {
          checkColumns(
              field.group(1),
              OptionRules.perColumnOption(option.getKey()),
              option.getValue(),
              rowType);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "table option '"
                  + option.getKey()
                  + "' = '"
                  + option.getValue()
                  + "' is invalid: "
                  + e.getMessage(),
              e);
        }
      }
    }
    TableOptions result = new TableOptions(options);
    result.checkColumns(rowType, primaryKeys);
    result.checkCombinations();
    return result;
  }

  private static void checkColumns(
      String column, TableOption<?> option, String value, RowType rowType) {
    // A sequence group may be ordered by several columns: fields.a,b.sequence-group.
    boolean sequenceGroup = option == ImplementedOptions.SEQUENCE_GROUP;
    List<String> columns = sequenceGroup ? OptionValues.list(column) : List.of(column);
    for (String c : columns) {
      if (rowType.indexOf(c) < 0) {
        throw new IllegalArgumentException(
            "the table has no column '" + c + "'; columns are " + rowType.names());
      }
    }
    if (sequenceGroup) {
      for (String c : ImplementedOptions.SEQUENCE_GROUP.parse(value)) {
        if (rowType.indexOf(c) < 0) {
          throw new IllegalArgumentException(
              "the sequence group names no column '" + c + "'; columns are " + rowType.names());
        }
      }
    }
  }

  private void checkColumns(RowType rowType, List<String> primaryKeys) {
    List<TableOption<List<String>>> naming =
        List.of(
            ImplementedOptions.BUCKET_KEY,
            ImplementedOptions.SEQUENCE_FIELD,
            ImplementedOptions.ROW_DEDUPLICATE_IGNORE_FIELDS);
    for (TableOption<List<String>> option : naming) {
      for (String column : get(option)) {
        if (rowType.indexOf(column) < 0) {
          throw new IllegalArgumentException(
              "table option '"
                  + option.key()
                  + "' names no column '"
                  + column
                  + "': columns are "
                  + rowType.names());
        }
        if (option == ImplementedOptions.BUCKET_KEY && !primaryKeys.contains(column)) {
          throw new IllegalArgumentException(
              "table option 'bucket-key' column '"
                  + column
                  + "' is not in the primary key "
                  + primaryKeys
                  + ": a bucket key must be a subset of the primary key");
        }
      }
    }
  }

  private void checkCombinations() {
    if (dynamicBucket() && options.containsKey(ImplementedOptions.BUCKET_KEY.key())) {
      throw new IllegalArgumentException(
          "table option 'bucket-key' cannot be used with 'bucket' = -1 (dynamic bucket mode, where"
              + " the whole primary key chooses the bucket), as in Paimon: remove 'bucket-key' or"
              + " set a fixed bucket count");
    }
    ChangelogProducer producer = changelogProducer();
    MergeEngine engine = mergeEngine();
    if (engine == MergeEngine.FIRST_ROW
        && (producer == ChangelogProducer.INPUT || producer == ChangelogProducer.FULL_COMPACTION)) {
      throw new IllegalArgumentException(
          "table option 'changelog-producer' = '"
              + producer
              + "' cannot be used with merge-engine"
              + " 'first-row': use changelog-producer 'lookup' (or 'none')");
    }
  }

  /**
   * Refuses a table whose options ask for behaviour changelake does not implement, before
   * changelake writes, reads, expires or cleans it: every option must be one {@link OptionRules}
   * accepts, at a value it accepts. Tables changelake created always pass.
   *
   * @param location the table, named in the message
   * @param use what was asked, named in the message ("written", "read", ...)
   * @throws UnsupportedTableException naming the first option refused and the fix
   */
  public void checkSupported(String location, String use) {
    try {
      for (Map.Entry<String, String> option : options.entrySet()) {
        OptionRules.check(option.getKey(), option.getValue());
      }
    } catch (IllegalArgumentException e) {
      throw new UnsupportedTableException(
          "table " + location + " cannot be " + use + " by changelake: " + e.getMessage(), e);
    }
  }

  /** Every option as stored, sorted by key. */
  public Map<String, String> asMap() {
    return options;
  }

  /** The stored value, or null. */
  public String get(String key) {
    return options.get(key);
  }

  /**
   * The value of a declared option: given, or its default. The options without an accessor of their
   * own here (those of automatic tags) are read this way.
   */
  public <T> T get(TableOption<T> option) {
    return option.valueIn(this);
  }

  public int bucket() {
    return get(ImplementedOptions.BUCKET);
  }

  /** Whether keys get their bucket from a hash index ({@code bucket} = -1). */
  public boolean dynamicBucket() {
    return bucket() == -1;
  }

  public long dynamicBucketTargetRowNum() {
    return get(ImplementedOptions.DYNAMIC_BUCKET_TARGET_ROW_NUM);
  }

  public int dynamicBucketInitialBuckets() {
    return get(ImplementedOptions.DYNAMIC_BUCKET_INITIAL_BUCKETS);
  }

  public int crossPartitionUpsertBootstrapParallelism() {
    return get(ImplementedOptions.CROSS_PARTITION_UPSERT_BOOTSTRAP_PARALLELISM);
  }

  public int dynamicBucketMaxBuckets() {
    return get(ImplementedOptions.DYNAMIC_BUCKET_MAX_BUCKETS);
  }

  /** The bucket-key columns; empty means the primary key. */
  public List<String> bucketKey() {
    return get(ImplementedOptions.BUCKET_KEY);
  }

  public ChangelogProducer changelogProducer() {
    return get(ImplementedOptions.CHANGELOG_PRODUCER);
  }

  public MergeEngine mergeEngine() {
    return get(ImplementedOptions.MERGE_ENGINE);
  }

  public String fileCompression() {
    return get(ImplementedOptions.FILE_COMPRESSION);
  }

  public int zstdLevel() {
    return get(ImplementedOptions.ZSTD_LEVEL);
  }

  public long targetFileSize() {
    return get(ImplementedOptions.TARGET_FILE_SIZE);
  }

  public long writeBufferSize() {
    return get(ImplementedOptions.WRITE_BUFFER_SIZE);
  }

  /** {@code page-size}: the size of a write buffer's pages. */
  public int pageSize() {
    return (int) (long) get(ImplementedOptions.PAGE_SIZE);
  }

  public boolean writeBufferSpillable() {
    return get(ImplementedOptions.WRITE_BUFFER_SPILLABLE);
  }

  public int sortedRunCompactionTrigger() {
    return get(ImplementedOptions.SORTED_RUN_COMPACTION_TRIGGER);
  }

  /** {@code num-sorted-run.stop-trigger}, never below the compaction trigger. */
  public int sortedRunStopTrigger() {
    return Math.max(sortedRunCompactionTrigger(), get(ImplementedOptions.SORTED_RUN_STOP_TRIGGER));
  }

  public int numLevels() {
    return get(ImplementedOptions.NUM_LEVELS);
  }

  public int maxSizeAmplificationPercent() {
    return get(ImplementedOptions.MAX_SIZE_AMPLIFICATION_PERCENT);
  }

  public int sizeRatio() {
    return get(ImplementedOptions.SIZE_RATIO);
  }

  /** Commits between full compactions; null unless set or implied by full-compaction (1). */
  public Integer fullCompactionDeltaCommits() {
    return get(ImplementedOptions.FULL_COMPACTION_DELTA_COMMITS);
  }

  public boolean lookupWait() {
    return get(ImplementedOptions.LOOKUP_WAIT);
  }

  public boolean changelogRowDeduplicate() {
    return get(ImplementedOptions.ROW_DEDUPLICATE);
  }

  public List<String> changelogRowDeduplicateIgnoreFields() {
    return get(ImplementedOptions.ROW_DEDUPLICATE_IGNORE_FIELDS);
  }

  public long lookupCacheMaxMemorySize() {
    return get(ImplementedOptions.LOOKUP_CACHE_MAX_MEMORY_SIZE);
  }

  /** Bounded by default, unlike Paimon's: {@link ImplementedOptions#LOOKUP_CACHE_MAX_DISK_SIZE}. */
  public long lookupCacheMaxDiskSize() {
    return get(ImplementedOptions.LOOKUP_CACHE_MAX_DISK_SIZE);
  }

  /** Whether lookup copies store their blocks zstd-compressed. */
  public boolean lookupCacheSpillCompressed() {
    return !"none".equals(get(ImplementedOptions.LOOKUP_CACHE_SPILL_COMPRESSION));
  }

  public Duration lookupCacheFileRetention() {
    return get(ImplementedOptions.LOOKUP_CACHE_FILE_RETENTION);
  }

  /** The local folder for spills and lookup copies, or null for {@code java.io.tmpdir}. */
  public String localDir() {
    return get(ImplementedOptions.LOCAL_DIR);
  }

  public List<String> sequenceFields() {
    return get(ImplementedOptions.SEQUENCE_FIELD);
  }

  /** {@code ignore-delete}, else the first of Paimon's older keys that is set. */
  public boolean ignoreDelete() {
    if (options.containsKey(ImplementedOptions.IGNORE_DELETE.key())) {
      return get(ImplementedOptions.IGNORE_DELETE);
    }
    for (TableOption<Boolean> fallback : ImplementedOptions.IGNORE_DELETE_FALLBACKS) {
      if (options.containsKey(fallback.key())) {
        return get(fallback);
      }
    }
    return get(ImplementedOptions.IGNORE_DELETE);
  }

  public boolean partialUpdateRemoveRecordOnDelete() {
    return get(ImplementedOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE);
  }

  /** The sequence fields whose group removes the whole row on a -D; empty if none. */
  public List<String> partialUpdateRemoveRecordOnSequenceGroup() {
    return get(ImplementedOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP);
  }

  public boolean aggregationRemoveRecordOnDelete() {
    return get(ImplementedOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE);
  }

  /** The aggregate function of a column: its own, the table default, or last_non_null_value. */
  public String aggregateFunction(String column) {
    TableOption<String> option = ImplementedOptions.AGGREGATE_FUNCTION;
    return option.valueIn(this, option.forColumn(column));
  }

  public boolean ignoreRetract(String column) {
    TableOption<Boolean> option = ImplementedOptions.IGNORE_RETRACT;
    return option.valueIn(this, option.forColumn(column));
  }

  /**
   * Every sequence group: its sequence fields ({@code a,b} of {@code fields.a,b.sequence-group})
   * mapped to the columns it orders, in option-key order.
   */
  public Map<List<String>, List<String>> sequenceGroups() {
    Map<List<String>, List<String>> groups = new LinkedHashMap<>();
    for (String key : options.keySet()) {
      Matcher field = OptionRules.FIELD_OPTION.matcher(key);
      if (field.matches()
          && OptionRules.perColumnOption(key) == ImplementedOptions.SEQUENCE_GROUP) {
        groups.put(
            OptionValues.list(field.group(1)),
            ImplementedOptions.SEQUENCE_GROUP.valueIn(this, key));
      }
    }
    return groups;
  }

  /**
   * The separator of column {@code column}'s listagg: {@code fields.<f>.list-agg-delimiter}, else
   * ",".
   */
  public String listAggDelimiter(String column) {
    TableOption<String> option = ImplementedOptions.LIST_AGG_DELIMITER;
    return option.valueIn(this, option.forColumn(column));
  }

  public int snapshotNumRetainedMin() {
    return get(RetentionOptions.SNAPSHOT_NUM_RETAINED_MIN);
  }

  public int snapshotNumRetainedMax() {
    return get(RetentionOptions.SNAPSHOT_NUM_RETAINED_MAX);
  }

  public Duration snapshotTimeRetained() {
    return get(RetentionOptions.SNAPSHOT_TIME_RETAINED);
  }

  /** The most snapshots one expiry run removes: {@code snapshot.expire.limit}, Paimon's 50. */
  public int snapshotExpireLimit() {
    return get(RetentionOptions.SNAPSHOT_EXPIRE_LIMIT);
  }

  /**
   * Whether a snapshot's changelog outlives it: the changelog retention exceeds the snapshot
   * retention in count or age (Paimon's {@code changelogLifecycleDecoupled}).
   */
  public boolean changelogDecoupled() {
    return get(RetentionOptions.CHANGELOG_NUM_RETAINED_MAX) > snapshotNumRetainedMax()
        || get(RetentionOptions.CHANGELOG_TIME_RETAINED).compareTo(snapshotTimeRetained()) > 0
        || get(RetentionOptions.CHANGELOG_NUM_RETAINED_MIN) > snapshotNumRetainedMin();
  }

  /** How long a consumer may go without recording progress before expiry removes it; or null. */
  public Duration consumerExpirationTime() {
    return get(RetentionOptions.CONSUMER_EXPIRATION_TIME);
  }

  public boolean writeOnly() {
    return get(ImplementedOptions.WRITE_ONLY);
  }

  public int commitMaxRetries() {
    return get(ImplementedOptions.COMMIT_MAX_RETRIES);
  }

  /** The shortest wait before a commit retry: {@code commit.min-retry-wait}, Paimon's 10 ms. */
  public Duration commitMinRetryWait() {
    return get(ImplementedOptions.COMMIT_MIN_RETRY_WAIT);
  }

  /** The longest wait before a commit retry: {@code commit.max-retry-wait}, Paimon's 10 s. */
  public Duration commitMaxRetryWait() {
    return get(ImplementedOptions.COMMIT_MAX_RETRY_WAIT);
  }

  public String partitionDefaultName() {
    return get(ImplementedOptions.PARTITION_DEFAULT_NAME);
  }

  @Override
  public String toString() {
    return options.toString();
  }
}
