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
 * option asks for behaviour changelake does not implement. Which Paimon options are implemented,
 * accepted as harmless, or refused is decided in one list, {@link OptionRules}, with the reason.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>bucket</td><td>1</td><td>buckets per partition (fixed; at least 1)</td></tr>
 *   <tr><td>bucket-key</td><td>primary key</td><td>columns that choose the bucket, a subset of the primary key</td></tr>
 *   <tr><td>changelog-producer</td><td>none</td><td>none, input, lookup, full-compaction ({@link ChangelogProducer})</td></tr>
 *   <tr><td>merge-engine</td><td>deduplicate</td><td>deduplicate, partial-update, aggregation, first-row ({@link MergeEngine})</td></tr>
 *   <tr><td>file.format</td><td>parquet</td><td>data file format; only parquet</td></tr>
 *   <tr><td>file.compression</td><td>zstd</td><td>zstd, snappy, gzip, lz4, none</td></tr>
 *   <tr><td>file.compression.zstd-level</td><td>1</td><td>zstd level</td></tr>
 *   <tr><td>target-file-size</td><td>128 mb</td><td>size at which a compaction starts a new file</td></tr>
 *   <tr><td>write-buffer-size</td><td>256 mb</td><td>memory the bucket writers of a worker (JVM) buffer together before the largest spills or flushes</td></tr>
 *   <tr><td>write-buffer-spillable</td><td>true</td><td>spill sorted runs to local disk when the buffer is full</td></tr>
 *   <tr><td>num-sorted-run.compaction-trigger</td><td>5</td><td>sorted runs that trigger a compaction</td></tr>
 *   <tr><td>num-sorted-run.stop-trigger</td><td>trigger + 3</td><td>sorted runs at which writes wait for compaction</td></tr>
 *   <tr><td>num-levels</td><td>trigger + 1</td><td>LSM levels</td></tr>
 *   <tr><td>compaction.max-size-amplification-percent</td><td>200</td><td>size amplification that forces a full compaction</td></tr>
 *   <tr><td>compaction.size-ratio</td><td>1</td><td>percent size difference within which runs are compacted together</td></tr>
 *   <tr><td>full-compaction.delta-commits</td><td>1 for full-compaction</td><td>commits between full compactions</td></tr>
 *   <tr><td>lookup-wait</td><td>true</td><td>a lookup commit waits for its changelog</td></tr>
 *   <tr><td>changelog-producer.row-deduplicate</td><td>false</td><td>emit nothing for an update to an equal row</td></tr>
 *   <tr><td>changelog-producer.row-deduplicate-ignore-fields</td><td></td><td>columns left out of that equality</td></tr>
 *   <tr><td>lookup.cache-max-memory-size</td><td>256 mb</td><td>heap for looked-up values, shared by the bucket writers of a worker</td></tr>
 *   <tr><td>lookup.cache-max-disk-size</td><td>10 gb (Paimon: unlimited)</td><td>local disk for lookup copies, shared by the bucket writers of a worker</td></tr>
 *   <tr><td>lookup.cache-spill-compression</td><td>zstd</td><td>compression of the lookup copies' blocks on local disk: zstd or none</td></tr>
 *   <tr><td>lookup.cache-file-retention</td><td>1 h</td><td>a lookup copy unused this long is deleted (rebuilt from its data file when needed again)</td></tr>
 *   <tr><td>local-dir</td><td>java.io.tmpdir</td><td>local folder for spilled write buffers and lookup copies (changelake's own option)</td></tr>
 *   <tr><td>sequence.field</td><td></td><td>columns that order versions of a key instead of arrival</td></tr>
 *   <tr><td>ignore-delete</td><td>false</td><td>drop retractions; Paimon's fallback keys first-row.ignore-delete, deduplicate.ignore-delete, partial-update.ignore-delete are read when it is unset</td></tr>
 *   <tr><td>partial-update.remove-record-on-delete</td><td>false</td><td>a -D removes the row</td></tr>
 *   <tr><td>partial-update.remove-record-on-sequence-group</td><td></td><td>sequence fields whose group removes the row on a -D</td></tr>
 *   <tr><td>aggregation.remove-record-on-delete</td><td>false</td><td>a -D removes the row</td></tr>
 *   <tr><td>fields.&lt;f&gt;.aggregate-function</td><td>last_non_null_value</td><td>the fold of column f</td></tr>
 *   <tr><td>fields.&lt;f&gt;.ignore-retract</td><td>false</td><td>column f ignores retractions</td></tr>
 *   <tr><td>fields.&lt;f&gt;.sequence-group</td><td></td><td>columns that f orders (partial-update); f may be several columns, {@code fields.a,b.sequence-group}</td></tr>
 *   <tr><td>fields.&lt;f&gt;.list-agg-delimiter</td><td>,</td><td>separator of the listagg function of column f</td></tr>
 *   <tr><td>fields.default-aggregate-function</td><td>last_non_null_value</td><td>fold of columns without their own</td></tr>
 *   <tr><td>snapshot.num-retained.min</td><td>10</td><td>snapshots expiry always keeps</td></tr>
 *   <tr><td>snapshot.num-retained.max</td><td>unlimited</td><td>snapshots beyond which expiry removes the oldest</td></tr>
 *   <tr><td>snapshot.time-retained</td><td>1 h</td><td>age beyond which expiry removes snapshots</td></tr>
 *   <tr><td>snapshot.expire.limit</td><td>50</td><td>snapshots one expiry run removes at most</td></tr>
 *   <tr><td>consumer.expiration-time</td><td>never</td><td>consumers not updated for this long are removed by expiry</td></tr>
 *   <tr><td>write-only</td><td>false</td><td>writers never compact on their own (several writers
 *     per bucket; a separate job compacts, and produces the lookup or full-compaction changelog)</td></tr>
 *   <tr><td>commit.max-retries</td><td>10</td><td>attempts a commit makes when another wins the snapshot id</td></tr>
 *   <tr><td>commit.min-retry-wait</td><td>10 ms</td><td>shortest wait before a commit retries, and the ceiling of the first wait</td></tr>
 *   <tr><td>commit.max-retry-wait</td><td>10 s</td><td>longest wait before a commit retries (the ceiling doubles per retry up to it)</td></tr>
 *   <tr><td>partition.default-name</td><td>__DEFAULT_PARTITION__</td><td>folder name of a null partition value</td></tr>
 * </table>
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

  /** {@code ignore-delete} and the keys Paimon reads, in this order, when it is unset. */
  static final List<String> IGNORE_DELETE_KEYS =
      List.of(
          "ignore-delete",
          "first-row.ignore-delete",
          "deduplicate.ignore-delete",
          "partial-update.ignore-delete");

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
          checkColumns(field.group(1), field.group(2), option.getValue(), rowType);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "table option '" + option.getKey() + "' = '" + option.getValue() + "' is invalid: "
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

  private static void checkColumns(String column, String what, String value, RowType rowType) {
    // A sequence group may be ordered by several columns: fields.a,b.sequence-group.
    List<String> columns = what.equals("sequence-group") ? OptionValues.list(column) : List.of(column);
    for (String c : columns) {
      if (rowType.indexOf(c) < 0) {
        throw new IllegalArgumentException(
            "the table has no column '" + c + "'; columns are " + rowType.names());
      }
    }
    if (what.equals("sequence-group")) {
      for (String c : OptionValues.list(value)) {
        if (rowType.indexOf(c) < 0) {
          throw new IllegalArgumentException(
              "the sequence group names no column '" + c + "'; columns are " + rowType.names());
        }
      }
    }
  }

  private void checkColumns(RowType rowType, List<String> primaryKeys) {
    for (String key : List.of("bucket-key", "sequence.field", "changelog-producer.row-deduplicate-ignore-fields")) {
      for (String column : list(key)) {
        if (rowType.indexOf(column) < 0) {
          throw new IllegalArgumentException(
              "table option '" + key + "' names no column '" + column + "': columns are "
                  + rowType.names());
        }
        if (key.equals("bucket-key") && !primaryKeys.contains(column)) {
          throw new IllegalArgumentException(
              "table option 'bucket-key' column '" + column
                  + "' is not in the primary key " + primaryKeys
                  + ": a bucket key must be a subset of the primary key");
        }
      }
    }
  }

  private void checkCombinations() {
    ChangelogProducer producer = changelogProducer();
    MergeEngine engine = mergeEngine();
    if (engine == MergeEngine.FIRST_ROW
        && (producer == ChangelogProducer.INPUT || producer == ChangelogProducer.FULL_COMPACTION)) {
      throw new IllegalArgumentException(
          "table option 'changelog-producer' = '" + producer + "' cannot be used with merge-engine"
              + " 'first-row': use changelog-producer 'lookup' (or 'none')");
    }
  }

  /**
   * Refuses a table whose options ask for behaviour changelake does not implement, before
   * changelake writes, reads, expires or cleans it: every option must be one {@link OptionRules}
   * accepts, at a value it accepts, and {@code bucket} must be set (Paimon's default, -1, is
   * dynamic bucket mode). Tables changelake created always pass.
   *
   * @param location the table, named in the message
   * @param use what was asked, named in the message ("written", "read", ...)
   * @throws UnsupportedTableException naming the first option refused and the fix
   */
  public void checkSupported(String location, String use) {
    try {
      if (!options.containsKey("bucket")) {
        OptionRules.check("bucket", "-1");
      }
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

  private List<String> list(String key) {
    String value = options.get(key);
    return value == null ? List.of() : OptionValues.list(value);
  }

  private boolean bool(String key, boolean defaultValue) {
    String value = options.get(key);
    return value == null ? defaultValue : OptionValues.bool(value);
  }

  private int integer(String key, int defaultValue) {
    String value = options.get(key);
    return value == null ? defaultValue : OptionValues.integer(value);
  }

  private long memory(String key, long defaultValue) {
    String value = options.get(key);
    return value == null ? defaultValue : OptionValues.memorySize(value);
  }

  public int bucket() {
    return integer("bucket", 1);
  }

  /** The bucket-key columns; empty means the primary key. */
  public List<String> bucketKey() {
    return list("bucket-key");
  }

  public ChangelogProducer changelogProducer() {
    String value = options.get("changelog-producer");
    return value == null ? ChangelogProducer.NONE : ChangelogProducer.fromValue(value);
  }

  public MergeEngine mergeEngine() {
    String value = options.get("merge-engine");
    return value == null ? MergeEngine.DEDUPLICATE : MergeEngine.fromValue(value);
  }

  public String fileCompression() {
    return options.getOrDefault("file.compression", "zstd");
  }

  public int zstdLevel() {
    return integer("file.compression.zstd-level", 1);
  }

  public long targetFileSize() {
    return memory("target-file-size", 128L << 20);
  }

  public long writeBufferSize() {
    return memory("write-buffer-size", 256L << 20);
  }

  public boolean writeBufferSpillable() {
    return bool("write-buffer-spillable", true);
  }

  public int sortedRunCompactionTrigger() {
    return integer("num-sorted-run.compaction-trigger", 5);
  }

  public int sortedRunStopTrigger() {
    return Math.max(
        sortedRunCompactionTrigger(),
        integer("num-sorted-run.stop-trigger", sortedRunCompactionTrigger() + 3));
  }

  public int numLevels() {
    return integer("num-levels", sortedRunCompactionTrigger() + 1);
  }

  public int maxSizeAmplificationPercent() {
    return integer("compaction.max-size-amplification-percent", 200);
  }

  public int sizeRatio() {
    return integer("compaction.size-ratio", 1);
  }

  /** Commits between full compactions; null unless set or implied by full-compaction (1). */
  public Integer fullCompactionDeltaCommits() {
    String value = options.get("full-compaction.delta-commits");
    if (value != null) {
      return OptionValues.integer(value);
    }
    return changelogProducer() == ChangelogProducer.FULL_COMPACTION ? 1 : null;
  }

  public boolean lookupWait() {
    return bool("lookup-wait", true);
  }

  public boolean changelogRowDeduplicate() {
    return bool("changelog-producer.row-deduplicate", false);
  }

  public List<String> changelogRowDeduplicateIgnoreFields() {
    return list("changelog-producer.row-deduplicate-ignore-fields");
  }

  public long lookupCacheMaxMemorySize() {
    return memory("lookup.cache-max-memory-size", 256L << 20);
  }

  /**
   * Bounded by default, unlike Paimon: unlimited, the copies of a large bucket fill the worker's
   * disk before anything evicts them.
   */
  public long lookupCacheMaxDiskSize() {
    return memory("lookup.cache-max-disk-size", 10L << 30);
  }

  /** Whether lookup copies store their blocks zstd-compressed. */
  public boolean lookupCacheSpillCompressed() {
    return !"none".equals(options.getOrDefault("lookup.cache-spill-compression", "zstd"));
  }

  public Duration lookupCacheFileRetention() {
    String value = options.get("lookup.cache-file-retention");
    return value == null ? Duration.ofHours(1) : OptionValues.duration(value);
  }

  /** The local folder for spills and lookup copies, or null for {@code java.io.tmpdir}. */
  public String localDir() {
    return options.get("local-dir");
  }

  public List<String> sequenceFields() {
    return list("sequence.field");
  }

  /** {@code ignore-delete}, else the first of Paimon's fallback keys that is set. */
  public boolean ignoreDelete() {
    for (String key : IGNORE_DELETE_KEYS) {
      if (options.containsKey(key)) {
        return bool(key, false);
      }
    }
    return false;
  }

  public boolean partialUpdateRemoveRecordOnDelete() {
    return bool("partial-update.remove-record-on-delete", false);
  }

  /** The sequence fields whose group removes the whole row on a -D; empty if none. */
  public List<String> partialUpdateRemoveRecordOnSequenceGroup() {
    return list("partial-update.remove-record-on-sequence-group");
  }

  public boolean aggregationRemoveRecordOnDelete() {
    return bool("aggregation.remove-record-on-delete", false);
  }

  /** The aggregate function of a column: its own, the table default, or last_non_null_value. */
  public String aggregateFunction(String column) {
    return options.getOrDefault(
        "fields." + column + ".aggregate-function",
        options.getOrDefault("fields.default-aggregate-function", "last_non_null_value"));
  }

  public boolean ignoreRetract(String column) {
    return bool("fields." + column + ".ignore-retract", false);
  }

  /** The columns the sequence group of {@code column} orders, or empty. */
  public List<String> sequenceGroup(String column) {
    return list("fields." + column + ".sequence-group");
  }

  /**
   * Every sequence group: its sequence fields ({@code a,b} of {@code fields.a,b.sequence-group})
   * mapped to the columns it orders, in option-key order.
   */
  public Map<List<String>, List<String>> sequenceGroups() {
    Map<List<String>, List<String>> groups = new LinkedHashMap<>();
    for (Map.Entry<String, String> option : options.entrySet()) {
      Matcher field = OptionRules.FIELD_OPTION.matcher(option.getKey());
      if (field.matches() && field.group(2).equals("sequence-group")) {
        groups.put(OptionValues.list(field.group(1)), OptionValues.list(option.getValue()));
      }
    }
    return groups;
  }

  /** The separator of column {@code column}'s listagg: {@code fields.<f>.list-agg-delimiter}, else ",". */
  public String listAggDelimiter(String column) {
    return options.getOrDefault("fields." + column + ".list-agg-delimiter", ",");
  }

  public int snapshotNumRetainedMin() {
    return integer("snapshot.num-retained.min", 10);
  }

  public int snapshotNumRetainedMax() {
    return integer("snapshot.num-retained.max", Integer.MAX_VALUE);
  }

  public Duration snapshotTimeRetained() {
    String value = options.get("snapshot.time-retained");
    return value == null ? Duration.ofHours(1) : OptionValues.duration(value);
  }

  /** The most snapshots one expiry run removes: {@code snapshot.expire.limit}, Paimon's 50. */
  public int snapshotExpireLimit() {
    return integer("snapshot.expire.limit", 50);
  }

  /** How long a consumer may go without recording progress before expiry removes it; or null. */
  public Duration consumerExpirationTime() {
    String value = options.get("consumer.expiration-time");
    return value == null ? null : OptionValues.duration(value);
  }

  public boolean writeOnly() {
    return bool("write-only", false);
  }

  public int commitMaxRetries() {
    return integer("commit.max-retries", 10);
  }

  /** The shortest wait before a commit retry: {@code commit.min-retry-wait}, Paimon's 10 ms. */
  public Duration commitMinRetryWait() {
    String value = options.get("commit.min-retry-wait");
    return value == null ? Duration.ofMillis(10) : OptionValues.duration(value);
  }

  /** The longest wait before a commit retry: {@code commit.max-retry-wait}, Paimon's 10 s. */
  public Duration commitMaxRetryWait() {
    String value = options.get("commit.max-retry-wait");
    return value == null ? Duration.ofSeconds(10) : OptionValues.duration(value);
  }

  public String partitionDefaultName() {
    return options.getOrDefault("partition.default-name", "__DEFAULT_PARTITION__");
  }

  @Override
  public String toString() {
    return options.toString();
  }
}
