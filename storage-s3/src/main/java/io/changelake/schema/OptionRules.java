package io.changelake.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What changelake does with each Apache Paimon 1.3.1 table option: the one list that decides
 * whether changelake may create, write, read, expire and clean a table with it.
 *
 * <ul>
 *   <li><b>implemented</b>: changelake reads the option and behaves as Paimon does;
 *   <li><b>harmless</b>: accepted and not acted on, because it only records metadata, or tunes a
 *       resource (memory, a local cache, a retry wait, another engine's job) without changing which
 *       files a table holds, what they hold, or which rows a read returns; the reason says why;
 *   <li>anything else is <b>refused</b>: an option not in the list, or a value of a listed option
 *       that asks for behaviour changelake does not implement (deletion vectors, dynamic or
 *       postpone bucket, a format other than parquet, ...). A refused table is never written,
 *       read, expired or cleaned by changelake: acting on it while ignoring the option could leave
 *       Paimon readers with stale or missing rows, or delete files another engine still needs.
 * </ul>
 *
 * <p>The list was made from {@code org.apache.paimon.CoreOptions} of Paimon 1.3.1, option by
 * option. Keys Paimon does not know are refused as well, with a hint to check the spelling.
 */
public final class OptionRules {

  /** How changelake treats an option: implemented (some values may be refused), harmless, refused. */
  public enum Support {
    IMPLEMENTED,
    HARMLESS,
    REFUSED
  }

  /**
   * One option.
   *
   * @param key the option key, or for {@link #PREFIXES} the start of the keys it covers
   * @param support how an accepted value is treated
   * @param reason what the option does in changelake, or why ignoring it is safe
   * @param check throws {@link IllegalArgumentException} with the fix if a value is malformed or
   *     asks for what changelake does not implement
   */
  public record Rule(String key, Support support, String reason, Consumer<String> check) {}

  /** Per-column options of the merge engines: {@code fields.<column>.<what>}. */
  public static final Pattern FIELD_OPTION =
      Pattern.compile(
          "fields\\.(.+)\\.(aggregate-function|ignore-retract|sequence-group|list-agg-delimiter)");

  private static final Map<String, Rule> RULES = new LinkedHashMap<>();
  private static final List<Rule> PREFIXES = new ArrayList<>();

  static {
    // Implemented.
    implemented("bucket", "fixed buckets per partition", OptionRules::checkBucket);
    implemented("bucket-key", "columns that choose the bucket", OptionValues::list);
    implemented("changelog-producer", "none, input, lookup, full-compaction", ChangelogProducer::fromValue);
    implemented("merge-engine", "deduplicate, partial-update, aggregation, first-row", MergeEngine::fromValue);
    implemented("file.format", "data files are parquet", only("parquet", "data files in a format other than parquet"));
    implemented("file.compression", "parquet codec", OptionRules::checkCompression);
    implemented("file.compression.zstd-level", "zstd level", OptionValues::integer);
    implemented("target-file-size", "size at which a compaction starts a new file", OptionValues::memorySize);
    implemented("write-buffer-size", "memory a bucket writer buffers", OptionValues::memorySize);
    implemented("write-buffer-spillable", "spill sorted runs to local disk", OptionValues::bool);
    implemented("num-sorted-run.compaction-trigger", "universal compaction", atLeast(2));
    implemented("num-sorted-run.stop-trigger", "universal compaction", atLeast(2));
    implemented("num-levels", "LSM levels", atLeast(2));
    implemented("compaction.max-size-amplification-percent", "universal compaction", OptionValues::integer);
    implemented("compaction.size-ratio", "universal compaction", OptionValues::integer);
    implemented("full-compaction.delta-commits", "commits between full compactions", atLeast(1));
    implemented("lookup-wait", "a lookup commit waits for its changelog", OptionValues::bool);
    implemented("changelog-producer.row-deduplicate", "no changelog for an equal update", OptionValues::bool);
    implemented("changelog-producer.row-deduplicate-ignore-fields", "columns left out of that equality", OptionValues::list);
    implemented("lookup.cache-max-memory-size", "heap for looked-up values", OptionValues::memorySize);
    implemented("lookup.cache-max-disk-size", "local disk for looked-up values", OptionValues::memorySize);
    implemented(
        "lookup.cache-spill-compression",
        "compression of the local lookup copies' blocks",
        v -> {
          if (!Set.of("zstd", "none").contains(v.trim().toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(
                "use zstd or none, got '" + v + "' (Paimon's lz4 and lzo are not implemented)");
          }
        });
    implemented("lookup.cache-file-retention", "unused local lookup copies are deleted after this", OptionValues::duration);
    implemented("local-dir", "changelake's own: the folder for spills and lookup copies", v -> {});
    implemented("sequence.field", "columns that order versions of a key", OptionValues::list);
    implemented("sequence.field.sort-order", "only ascending", only("ascending", "a descending sequence.field"));
    for (String key : TableOptions.IGNORE_DELETE_KEYS) {
      implemented(key, "drop retractions", OptionValues::bool);
    }
    implemented("partial-update.remove-record-on-delete", "a -D removes the row", OptionValues::bool);
    implemented("partial-update.remove-record-on-sequence-group", "groups whose -D removes the row", OptionValues::list);
    implemented("aggregation.remove-record-on-delete", "a -D removes the row", OptionValues::bool);
    implemented("fields.default-aggregate-function", "fold of columns without their own", OptionRules::checkAggregateFunction);
    implemented("snapshot.num-retained.min", "snapshot expiry after each commit", atLeast(1));
    implemented("snapshot.num-retained.max", "snapshot expiry after each commit", atLeast(1));
    implemented("snapshot.time-retained", "snapshot expiry after each commit", OptionValues::duration);
    implemented("snapshot.expire.limit", "snapshots one expiry run removes at most", atLeast(1));
    implemented(
        "snapshot.expire.execution-mode",
        "changelake always expires in the committing thread (sync); async only moves Paimon's to"
            + " another thread",
        v -> {
          if (!v.equalsIgnoreCase("sync") && !v.equalsIgnoreCase("async")) {
            throw new IllegalArgumentException("use sync or async, got '" + v + "'");
          }
        });
    implemented("consumer.expiration-time", "consumers idle this long are removed by expiry", OptionValues::duration);
    implemented("write-only", "writers never compact on their own", OptionValues::bool);
    implemented("commit.max-retries", "attempts of a commit that loses a race", atLeast(0));
    implemented("partition.default-name", "folder name of a null partition value", v -> {});
    implemented(
        "partition.legacy-name",
        "changelake names partition folders the legacy way, Paimon's default",
        onlyTrue("partition names other than the legacy ones (partition.legacy-name = false)"));
    implemented("type", "a primary-key table", only("table", "tables of another type"));
    implemented("branch", "the main branch", only("main", "branches"));
    implemented("data-file.prefix", "data files are named data-*", only("data-", "another data file prefix"));
    implemented("changelog-file.prefix", "changelog files are named changelog-*", only("changelog-", "another changelog file prefix"));
    implemented("changelog-file.format", "changelog files are parquet", only("parquet", "changelog files in a format other than parquet"));
    implemented("manifest.format", "manifests are avro", only("avro", "manifests in a format other than avro"));
    implemented("bucket-function.type", "Paimon's default bucket function", only("default", "another bucket function"));

    // Harmless: metadata, or tuning that changes neither the files nor what a read returns.
    harmless("path", "where a catalog put the table; changelake uses where it opened it");
    harmless("primary-key", "DDL form of the schema's primary key, which rules");
    harmless("partition", "DDL form of the schema's partition keys, which rule");
    harmless("auto-create", "whether Paimon creates a missing table");
    harmless("manifest.compression", "avro files name their codec; any reads the same");
    harmless("manifest.target-file-size", "manifest layout; any layout reads the same");
    harmless("manifest.full-compaction-threshold-size", "manifest layout; any layout reads the same");
    harmless("manifest.merge-min-count", "manifest layout; any layout reads the same");
    harmless("manifest.delete-file-drop-stats", "statistics of deleted entries; unused by reads");
    harmless("metadata.stats-mode", "value statistics only bound filters; changelake writes truncate(16), a valid bound");
    harmless("metadata.stats-dense-store", "statistics layout; any reads the same");
    harmless("metadata.stats-keep-first-n-columns", "statistics only bound filters");
    harmless("changelog-file.compression", "parquet files name their codec");
    harmless("changelog-file.stats-mode", "statistics only bound filters");
    harmless("file.block-size", "parquet row group size");
    harmless("parquet.enable.dictionary", "parquet encoding; any reads the same");
    harmless("file-index.read.enabled", "a reader's use of file indexes");
    harmless("file-index.in-manifest-threshold", "where file indexes go; changelake writes none");
    harmless("snapshot.clean-empty-directories", "object stores have no directories to clean");
    harmless("commit.timeout", "how long Paimon's commit retries");
    harmless("commit.min-retry-wait", "commit backoff");
    harmless("commit.max-retry-wait", "commit backoff");
    harmless("commit.user-prefix", "names Paimon's commit users");
    harmless("snapshot.ignore-empty-commit", "changelake never commits an empty snapshot; no row differs");
    harmless("write-buffer-spill.max-disk-size", "local spill disk");
    harmless("write-max-writers-to-spill", "local spilling");
    harmless("sort-engine", "local merge algorithm; same result");
    harmless("sort-spill-threshold", "local spilling");
    harmless("sort-spill-buffer-size", "local spilling");
    harmless("spill-compression", "local spill files");
    harmless("spill-compression.zstd-level", "local spill files");
    harmless("local-sort.max-num-file-handles", "local spilling");
    harmless("page-size", "memory pages");
    harmless("cache-page-size", "memory pages");
    harmless("read.batch-size", "reader batches");
    harmless("write.batch-size", "writer batches");
    harmless("write.batch-memory", "writer batches");
    harmless("async-file-write", "writer threading");
    harmless("file-operation.thread-num", "threads");
    harmless("file-reader-async-threshold", "reader threading");
    harmless("source.split.target-size", "how a Paimon reader splits work");
    harmless("source.split.open-file-cost", "how a Paimon reader splits work");
    harmless("scan.max-splits-per-task", "how a Paimon reader splits work");
    harmless("scan.manifest.parallelism", "reader threading");
    harmless("scan.plan-sort-partition", "order of a Paimon reader's splits");
    harmless("continuous.discovery-interval", "how often a Paimon streaming reader polls");
    harmless("consumer-id", "the consumer a Paimon reader records; changelake readers name theirs");
    harmless("lookup-compact.max-interval", "when Paimon's gentle lookup compaction forces one");
    harmless("snapshot.watermark-idle-timeout", "Flink watermarks");
    harmless("sink.watermark-time-zone", "Flink watermarks");
    harmless("sink.process-time-zone", "Flink time zone");
    harmless("sink.parallelism", "Flink job parallelism");
    harmless("scan.parallelism", "Flink job parallelism");
    harmless("scan.infer-parallelism", "Flink job parallelism");
    harmless("local-merge-buffer-size", "Flink pre-aggregation before the writer; same merge");
    harmless("end-input.check-partition-expire", "Flink batch end");
    harmless("partition.end-input-to-done", "Flink batch end");
    harmless("partition.sink-strategy", "Flink shuffling");
    harmless("partition.idle-time-to-report-statistic", "catalog statistics");
    harmless("alter-column-null-to-not-null.disabled", "schema changes, which changelake does not make");
    harmless("disable-explicit-type-casting", "schema changes, which changelake does not make");
    harmless("write-buffer-for-append", "append tables only");
    harmless("bucket-append-ordered", "append tables only");
    harmless("compaction.min.file-num", "append tables only");
    harmless("compaction.delete-ratio-threshold", "deletion vectors only, which are refused");
    harmless("deletion-vector.index-file.target-size", "deletion vectors only, which are refused");
    harmless("deletion-vectors.bitmap64", "deletion vectors only, which are refused");
    harmless("zorder.var-length-contribution", "Paimon's sort compaction action");
    harmless("lookup.local-file-type", "lookup cache file layout");
    harmless("lookup.hash-load-factor", "lookup cache");
    harmless("lookup.cache.high-priority-pool-ratio", "lookup cache");
    harmless("lookup.cache.bloom.filter.enabled", "lookup cache");
    harmless("lookup.cache.bloom.filter.fpp", "lookup cache");
    harmless("lookup.merge-buffer-size", "lookup merge memory");
    harmless("lookup.merge-records-threshold", "lookup merge memory");
    harmless("dynamic-partition-overwrite", "overwrites, which changelake does not make");
    prefix("materialized-table.", "Flink materialized-table metadata");
    prefix("metastore.", "catalog metadata");
    prefix("dynamic-bucket.", "dynamic bucket only, which is refused");
    prefix("cross-partition-upsert.", "dynamic bucket only, which is refused");
    prefix("sort-compaction.", "Paimon's sort compaction action");
    prefix("partition.mark-done-action", "Flink marks partitions done");
    prefix("commit.callback.", "parameters of commit callbacks, which are refused");
    prefix("tag.callback.", "parameters of tag callbacks, which are refused");

    // Accepted only at the value that asks for nothing changelake lacks.
    onlyDefault("deletion-vectors.enabled", "false", "deletion vectors");
    onlyDefault("data-evolution.enabled", "false", "data evolution");
    onlyDefault("row-tracking.enabled", "false", "row tracking");
    onlyDefault("data-file.thin-mode", "false", "thin data files");
    onlyDefault("index-file-in-data-file-dir", "false", "index files in data folders");
    onlyDefault("query-auth.enabled", "false", "query authorisation");
    onlyDefault("force-lookup", "false", "forced lookup");
    onlyDefault("ignore-update-before", "false", "dropping -U records");
    onlyDefault("delete.force-produce-changelog", "false", "forced changelog of deletes");
    onlyDefault("commit.force-compact", "false", "a compaction forced at every commit");
    onlyDefault("commit.force-create-snapshot", "false", "snapshots for empty commits");
    onlyDefault("compaction.force-rewrite-all-files", "false", "full rewrites");
    onlyDefault("compaction.force-up-level-0", "false", "forced level-0 compaction");
    onlyDefault("file.suffix.include.compression", "false", "codec suffixes in file names");
    onlyDefault("streaming-read-overwrite", "false", "reading overwrites as changes");
    onlyDefault("streaming-read-append-overwrite", "false", "reading overwrites as changes");
    onlyDefault("consumer.ignore-progress", "false", "consumers that ignore their progress");
    onlyDefault("consumer.mode", "exactly-once", "at-least-once consumers");
    onlyDefault("lookup-compact", "radical", "gentle lookup compaction");
    onlyDefault("tag.automatic-creation", "none", "automatic tags");
    onlyDefault("compaction.offpeak.start.hour", "-1", "off-peak compaction");
    onlyDefault("compaction.offpeak.end.hour", "-1", "off-peak compaction");
    onlyDefault("compaction.offpeak-ratio", "0", "off-peak compaction");
    onlyDefault("commit.callbacks", "", "commit callbacks");
    onlyDefault("tag.callbacks", "", "tag callbacks");
    onlyDefault("file.format.per.level", "", "per-level file formats");
    onlyDefault("file.compression.per.level", "", "per-level compression");
    onlyDefault("metadata.stats-mode.per.level", "", "per-level statistics");
    onlyDefault("clustering.columns", "", "clustering");
    onlyDefault("scan.fallback-branch", "", "fallback branches");
    onlyDefault("data-file.path-directory", "", "data files in another folder");
    onlyDefault("data-file.external-paths", "", "data files at external paths");
    onlyDefault("data-file.external-paths.strategy", "none", "data files at external paths");

    // Refused whatever the value: behaviour changelake does not implement.
    refused("changelog.num-retained.min", "the decoupled changelog lifecycle");
    refused("changelog.num-retained.max", "the decoupled changelog lifecycle");
    refused("changelog.time-retained", "the decoupled changelog lifecycle");
    refused("partition.expiration-time", "partition expiration");
    refused("record-level.expire-time", "record-level expiry");
    refused("record-level.time-field", "record-level expiry");
    refused("rowkind.field", "row kinds taken from a column");
    refused("upsert-key", "upsert keys");
    refused("compaction.optimization-interval", "scheduled full compaction");
    refused("compaction.total-size-threshold", "size-triggered full compaction");
    refused("commit.strict-mode.last-safe-snapshot", "strict commit mode");
    refused("data-file.external-paths.specific-fs", "data files at external paths");

    // Read-side defaults of Paimon readers; a changelake read always names its own start.
    for (String key :
        List.of(
            "scan.mode", "scan.timestamp", "scan.timestamp-millis", "scan.watermark",
            "scan.file-creation-time-millis", "scan.creation-time-millis", "scan.snapshot-id",
            "scan.tag-name", "scan.version", "scan.bounded.watermark",
            "streaming.read.snapshot.delay", "stream-scan-mode", "streaming-read-mode",
            "batch-scan-mode", "incremental-between", "incremental-between-scan-mode",
            "incremental-between-timestamp", "incremental-to-auto-tag")) {
      harmless(key, "where a Paimon reader starts by default; a changelake read names its own");
    }
    prefix("log.", "Flink's external log system, which changelake does not use");
    prefix("tag.", "tag creation and retention details; automatic tags are refused and keeping"
        + " more tags never loses a file");
    prefix("clustering.", "clustering details; clustering.columns is refused");
    for (String key :
        List.of(
            "partition.expiration-strategy", "partition.expiration-check-interval",
            "partition.expiration-max-num", "partition.expiration-batch-size",
            "partition.timestamp-formatter", "partition.timestamp-pattern")) {
      harmless(key, "used only with partition.expiration-time, which is refused");
    }
  }

  private OptionRules() {}

  private static void implemented(String key, String reason, Consumer<String> check) {
    RULES.put(key, new Rule(key, Support.IMPLEMENTED, reason, check));
  }

  private static void harmless(String key, String reason) {
    RULES.put(key, new Rule(key, Support.HARMLESS, reason, v -> {}));
  }

  private static void refused(String key, String what) {
    RULES.put(
        key,
        new Rule(
            key,
            Support.REFUSED,
            "changelake does not implement " + what,
            v -> {
              throw notImplemented(what, "");
            }));
  }

  private static void prefix(String start, String reason) {
    PREFIXES.add(new Rule(start, Support.HARMLESS, reason, v -> {}));
  }

  private static void onlyDefault(String key, String value, String what) {
    RULES.put(
        key,
        new Rule(
            key,
            Support.IMPLEMENTED,
            "only '" + value + "': changelake does not implement " + what,
            value.equals("true") || value.equals("false")
                ? v -> {
                  if (OptionValues.bool(v) != Boolean.parseBoolean(value)) {
                    throw notImplemented(what, value);
                  }
                }
                : only(value, what)));
  }

  private static Consumer<String> only(String accepted, String what) {
    return v -> {
      if (!v.trim().equalsIgnoreCase(accepted)) {
        throw notImplemented(what, accepted);
      }
    };
  }

  private static Consumer<String> onlyTrue(String what) {
    return v -> {
      if (!OptionValues.bool(v)) {
        throw notImplemented(what, "true");
      }
    };
  }

  private static IllegalArgumentException notImplemented(String what, String accepted) {
    return new IllegalArgumentException(
        "changelake does not implement " + what + " and will not ignore it: use Paimon for this"
            + " table, or "
            + (accepted.isEmpty() ? "remove the option" : "set it to '" + accepted + "'"));
  }

  private static Consumer<String> atLeast(int min) {
    return v -> {
      int value = OptionValues.integer(v);
      if (value < min) {
        throw new IllegalArgumentException("must be at least " + min + ", got " + value);
      }
    };
  }

  private static void checkBucket(String v) {
    int bucket = OptionValues.integer(v);
    if (bucket == -1) {
      throw new IllegalArgumentException(
          "changelake does not implement dynamic bucket mode (bucket = -1, Paimon's default when"
              + " 'bucket' is unset) and will not ignore it: set a fixed bucket count of at least 1,"
              + " or use Paimon for this table");
    }
    if (bucket == -2) {
      throw new IllegalArgumentException(
          "changelake does not implement postpone bucket mode (bucket = -2) and will not ignore"
              + " it: set a fixed bucket count of at least 1, or use Paimon for this table");
    }
    if (bucket < 1) {
      throw new IllegalArgumentException("bucket must be at least 1, got " + bucket);
    }
  }

  private static void checkCompression(String v) {
    if (!List.of("zstd", "snappy", "gzip", "lz4", "none").contains(v)) {
      throw new IllegalArgumentException("use zstd, snappy, gzip, lz4 or none, got '" + v + "'");
    }
  }

  static void checkAggregateFunction(String value) {
    if (!TableOptions.AGGREGATE_FUNCTIONS.contains(value)) {
      throw new IllegalArgumentException(
          "unknown aggregate function; use one of "
              + String.join(", ", new TreeSet<>(TableOptions.AGGREGATE_FUNCTIONS)));
    }
  }

  /** The rule of a key, or null if changelake does not know it. */
  public static Rule rule(String key) {
    Rule rule = RULES.get(key);
    if (rule != null) {
      return rule;
    }
    for (Rule p : PREFIXES) {
      if (key.startsWith(p.key())) {
        return p;
      }
    }
    return null;
  }

  /**
   * Checks one option's value (per-column options only by their value's form: the columns are
   * checked by {@link TableOptions#validate}).
   *
   * @throws IllegalArgumentException naming the option, if it is unknown, malformed or asks for
   *     behaviour changelake does not implement, and the fix
   */
  public static void check(String key, String value) {
    try {
      Rule rule = rule(key);
      Matcher field = FIELD_OPTION.matcher(key);
      if (rule != null) {
        rule.check().accept(value);
      } else if (field.matches()) {
        checkFieldValue(field.group(2), value);
      } else {
        throw new IllegalArgumentException(
            "it is not an option changelake knows, so changelake will not act on a table that has"
                + " it; check the spelling (options changelake implements: "
                + String.join(", ", implementedKeys())
                + ", fields.<column>.aggregate-function|ignore-retract|sequence-group|list-agg-delimiter)");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "table option '" + key + "' = '" + value + "' is not usable: " + e.getMessage(), e);
    }
  }

  private static void checkFieldValue(String what, String value) {
    switch (what) {
      case "aggregate-function":
        checkAggregateFunction(value);
        break;
      case "ignore-retract":
        OptionValues.bool(value);
        break;
      case "sequence-group":
        OptionValues.list(value);
        break;
      default:
        break;
    }
  }

  /** Every option changelake implements, in list order. */
  static List<String> implementedKeys() {
    List<String> keys = new ArrayList<>();
    for (Rule rule : RULES.values()) {
      if (rule.support() == Support.IMPLEMENTED) {
        keys.add(rule.key());
      }
    }
    return Collections.unmodifiableList(keys);
  }

  /** Every listed rule: exact keys, then prefixes. */
  public static List<Rule> all() {
    List<Rule> all = new ArrayList<>(RULES.values());
    all.addAll(PREFIXES);
    return all;
  }
}
