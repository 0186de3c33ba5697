package io.changelake.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What changelake does with each Apache Paimon 1.3.1 table option: the one list that decides
 * whether changelake may create, write, read, expire and clean a table with it.
 *
 * <ul>
 *   <li><b>implemented</b>: changelake reads the option and behaves as Paimon does; these are
 *       declared, with default, bounds and meaning, in {@link ImplementedOptions}, not here;
 *   <li><b>harmless</b>: accepted and not acted on, because it only records metadata, or tunes a
 *       resource (memory, a local cache, a retry wait, another engine's job) without changing which
 *       files a table holds, what they hold, or which rows a read returns; the reason says why;
 *   <li><b>fixed</b>: accepted at the one value changelake behaves as (parquet data files, no
 *       deletion vectors, ...), refused at any other;
 *   <li>anything else is <b>refused</b>: an option not in the list, or a value of a listed option
 *       that asks for behaviour changelake does not implement (deletion vectors, dynamic or
 *       postpone bucket, a format other than parquet, ...). A refused table is never written, read,
 *       expired or cleaned by changelake: acting on it while ignoring the option could leave Paimon
 *       readers with stale or missing rows, or delete files another engine still needs.
 * </ul>
 *
 * <p>The list was made from {@code org.apache.paimon.CoreOptions} of Paimon 1.3.1, option by
 * option. Keys Paimon does not know are refused as well, with a hint to check the spelling.
 */
public final class OptionRules {

  /** How changelake treats an option. */
  public enum Support {
    /** Declared in {@link ImplementedOptions}: read and acted on as Paimon does. */
    IMPLEMENTED,
    /** Accepted and not acted on: the reason says why that is safe. */
    HARMLESS,
    /** Accepted at one value, the one changelake behaves as; any other is refused. */
    FIXED,
    /** Refused whatever the value. */
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

  private static final String FIELDS = "fields." + TableOption.COLUMN + ".";
  private static final Map<String, TableOption<?>> PER_COLUMN = new LinkedHashMap<>();
  private static final Map<String, Rule> RULES = new LinkedHashMap<>();
  private static final List<Rule> PREFIXES = new ArrayList<>();

  static {
    for (TableOption<?> option : ImplementedOptions.ALL) {
      if (option.perColumn()) {
        if (!option.key().startsWith(FIELDS)) {
          throw new IllegalStateException("per-column option '" + option + "' is not fields.<f>.*");
        }
        PER_COLUMN.put(option.key().substring(FIELDS.length()), option);
      } else {
        add(new Rule(option.key(), Support.IMPLEMENTED, option.description(), option::check));
      }
    }

    // Accepted at the one value changelake's behaviour is.
    fixed("type", "table", "tables of another type");
    fixed("branch", "main", "branches");
    fixed("data-file.prefix", "data-", "another data file prefix");
    fixed("changelog-file.prefix", "changelog-", "another changelog file prefix");
    fixed("file.format", "parquet", "data files in a format other than parquet");
    fixed("changelog-file.format", "parquet", "changelog files in a format other than parquet");
    fixed("manifest.format", "avro", "manifests in a format other than avro");
    fixed("bucket-function.type", "default", "another bucket function");
    fixed("sequence.field.sort-order", "ascending", "a descending sequence.field");
    fixed(
        "partition.legacy-name",
        "true",
        "partition names other than the legacy ones (partition.legacy-name = false)");
    fixed("deletion-vectors.enabled", "false", "deletion vectors");
    fixed("data-evolution.enabled", "false", "data evolution");
    fixed("row-tracking.enabled", "false", "row tracking");
    fixed("data-file.thin-mode", "false", "thin data files");
    fixed("index-file-in-data-file-dir", "false", "index files in data folders");
    fixed("query-auth.enabled", "false", "query authorisation");
    fixed("force-lookup", "false", "forced lookup");
    fixed("ignore-update-before", "false", "dropping -U records");
    fixed("delete.force-produce-changelog", "false", "forced changelog of deletes");
    fixed("commit.force-compact", "false", "a compaction forced at every commit");
    fixed("commit.force-create-snapshot", "false", "snapshots for empty commits");
    fixed("compaction.force-rewrite-all-files", "false", "full rewrites");
    fixed("compaction.force-up-level-0", "false", "forced level-0 compaction");
    fixed("file.suffix.include.compression", "false", "codec suffixes in file names");
    fixed("streaming-read-overwrite", "false", "reading overwrites as changes");
    fixed("streaming-read-append-overwrite", "false", "reading overwrites as changes");
    fixed("consumer.ignore-progress", "false", "consumers that ignore their progress");
    fixed("consumer.mode", "exactly-once", "at-least-once consumers");
    fixed("lookup-compact", "radical", "gentle lookup compaction");
    fixed("compaction.offpeak.start.hour", "-1", "off-peak compaction");
    fixed("compaction.offpeak.end.hour", "-1", "off-peak compaction");
    fixed("compaction.offpeak-ratio", "0", "off-peak compaction");
    fixed("commit.callbacks", "", "commit callbacks");
    fixed("tag.callbacks", "", "tag callbacks");
    fixed("file.format.per.level", "", "per-level file formats");
    fixed("file.compression.per.level", "", "per-level compression");
    fixed("metadata.stats-mode.per.level", "", "per-level statistics");
    fixed("clustering.columns", "", "clustering");
    fixed("scan.fallback-branch", "", "fallback branches");
    fixed("data-file.path-directory", "", "data files in another folder");
    fixed("data-file.external-paths", "", "data files at external paths");
    fixed("data-file.external-paths.strategy", "none", "data files at external paths");

    // Harmless: metadata, or tuning that changes neither the files nor what a read returns.
    harmless("path", "where a catalog put the table; changelake uses where it opened it");
    harmless("primary-key", "DDL form of the schema's primary key, which rules");
    harmless("partition", "DDL form of the schema's partition keys, which rule");
    harmless("auto-create", "whether Paimon creates a missing table");
    harmless("manifest.compression", "avro files name their codec; any reads the same");
    harmless("manifest.target-file-size", "manifest layout; any layout reads the same");
    harmless(
        "manifest.full-compaction-threshold-size", "manifest layout; any layout reads the same");
    harmless("manifest.merge-min-count", "manifest layout; any layout reads the same");
    harmless("manifest.delete-file-drop-stats", "statistics of deleted entries; unused by reads");
    harmless(
        "metadata.stats-mode",
        "value statistics only bound filters; changelake writes truncate(16), a valid bound");
    harmless("metadata.stats-dense-store", "statistics layout; any reads the same");
    harmless("metadata.stats-keep-first-n-columns", "statistics only bound filters");
    harmless("changelog-file.compression", "parquet files name their codec");
    harmless("changelog-file.stats-mode", "statistics only bound filters");
    harmless("file.block-size", "parquet row group size");
    harmless("parquet.enable.dictionary", "parquet encoding; any reads the same");
    harmless("file-index.read.enabled", "a reader's use of file indexes");
    harmless("file-index.in-manifest-threshold", "where file indexes go; changelake writes none");
    harmless(
        "snapshot.expire.execution-mode",
        "changelake always expires in the committing thread (sync); async only moves Paimon's to"
            + " another thread",
        v -> OptionBounds.oneOf(List.of("sync", "async"), "").check(v.toLowerCase(Locale.ROOT)));
    harmless("snapshot.clean-empty-directories", "object stores have no directories to clean");
    harmless("commit.timeout", "how long Paimon's commit retries");
    harmless("commit.user-prefix", "names Paimon's commit users");
    harmless(
        "snapshot.ignore-empty-commit",
        "changelake never commits an empty snapshot; no row differs");
    harmless("write-buffer-spill.max-disk-size", "local spill disk");
    harmless("write-max-writers-to-spill", "local spilling");
    harmless("sort-engine", "local merge algorithm; same result");
    harmless("sort-spill-threshold", "local spilling");
    harmless("sort-spill-buffer-size", "local spilling");
    harmless("spill-compression", "local spill files");
    harmless("spill-compression.zstd-level", "local spill files");
    harmless("local-sort.max-num-file-handles", "local spilling");
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
    harmless(
        "alter-column-null-to-not-null.disabled", "schema changes, which changelake does not make");
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
    prefix("dynamic-bucket.", "the parallelism of Flink's bucket-assigner operator");
    prefix("sort-compaction.", "Paimon's sort compaction action");
    prefix("partition.mark-done-action", "Flink marks partitions done");
    prefix("commit.callback.", "parameters of commit callbacks, which are refused");
    prefix("tag.callback.", "parameters of tag callbacks, which are refused");

    // Refused whatever the value: behaviour changelake does not implement.
    refused("record-level.expire-time", "record-level expiry");
    refused("record-level.time-field", "record-level expiry");
    refused("rowkind.field", "row kinds taken from a column");
    refused("upsert-key", "upsert keys");
    refused("compaction.optimization-interval", "scheduled full compaction");
    refused("compaction.total-size-threshold", "size-triggered full compaction");
    refused("commit.strict-mode.last-safe-snapshot", "strict commit mode");
    refused("data-file.external-paths.specific-fs", "data files at external paths");
    refused(
        "cross-partition-upsert.index-ttl",
        "a time-to-live of the cross-partition key index (in Paimon it may duplicate keys)");

    // Read-side defaults of Paimon readers; a changelake read always names its own start.
    for (String key :
        List.of(
            "scan.mode",
            "scan.timestamp",
            "scan.timestamp-millis",
            "scan.watermark",
            "scan.file-creation-time-millis",
            "scan.creation-time-millis",
            "scan.snapshot-id",
            "scan.tag-name",
            "scan.version",
            "scan.bounded.watermark",
            "streaming.read.snapshot.delay",
            "stream-scan-mode",
            "streaming-read-mode",
            "batch-scan-mode",
            "incremental-between",
            "incremental-between-scan-mode",
            "incremental-between-timestamp",
            "incremental-to-auto-tag")) {
      harmless(key, "where a Paimon reader starts by default; a changelake read names its own");
    }
    flinkConnectorOptions();
    prefix("log.", "Flink's external log system, which changelake does not use");
    refused("tag.default-time-retained", "tags that expire by age");
    fixed("tag.create-success-file", "false", "success files of tags");
    harmless("tag.batch.customized-name", "used only with batch tags, which are refused");
    prefix("clustering.", "clustering details; clustering.columns is refused");
    harmless(
        "partition.expiration-batch-size",
        "Paimon drops expired partitions in several OVERWRITE commits to bound its memory;"
            + " changelake drops them in one, the same rows");
  }

  /**
   * Per-column options ({@code fields.<column>.<what>}) of the declared kinds; group 1 is the
   * column, group 2 the kind.
   */
  public static final Pattern FIELD_OPTION =
      Pattern.compile(
          "fields\\.(.+)\\.("
              + PER_COLUMN.keySet().stream().map(Pattern::quote).collect(Collectors.joining("|"))
              + ")");

  private OptionRules() {}

  private static void add(Rule rule) {
    if (RULES.put(rule.key(), rule) != null) {
      throw new IllegalStateException("table option '" + rule.key() + "' is decided twice");
    }
  }

  /**
   * Options of Paimon's Flink connector (paimon-flink's {@code FlinkConnectorOptions}), which a
   * Flink SQL user may put on a table, and the {@code schema.*} options in which Paimon's Flink
   * catalog keeps a table's computed columns and watermarks: they steer Flink's own operators (its
   * sources, sinks, lookup joins, memory, parallelism, watermarks) and planner, none of which
   * changelake runs, and change neither what a table holds nor what a read of it returns. One asks
   * for a writer's behaviour: a full-compaction interval other than 0 (every commit, what
   * changelake does).
   */
  private static void flinkConnectorOptions() {
    String operators = "Flink's source, sink and commit operators";
    for (String key :
        List.of(
            "unaware-bucket.compaction.parallelism",
            "scan.infer-parallelism.max",
            "scan.split-enumerator.batch-size",
            "scan.split-enumerator.mode",
            "scan.max-snapshot.count",
            "scan.bounded",
            "scan.dedicated-split-generation",
            "scan.remove-normalize",
            "read.shuffle-bucket-with-partition",
            "source.checkpoint-align.enabled",
            "source.checkpoint-align.timeout",
            "source.operator-uid.suffix",
            "sink.operator-uid.suffix",
            "sink.use-managed-memory-allocator",
            "sink.managed.writer-buffer-memory",
            "sink.cross-partition.managed-memory",
            "sink.writer-cpu",
            "sink.writer-memory",
            "sink.committer-cpu",
            "sink.committer-memory",
            "sink.committer-operator-chaining",
            "sink.savepoint.auto-tag",
            "sink.clustering.sort-in-cluster",
            "sink.clustering.sample-factor",
            "sink.writer-coordinator.enabled",
            "sink.writer-coordinator.cache-memory",
            "sink.writer-coordinator.page-size",
            "sink.writer-refresh-detectors",
            "commit.custom-listeners",
            "end-input.watermark",
            "filesystem.job-level-settings.enabled",
            "postpone.default-bucket-num",
            // Flink merges the changelog files of a checkpoint into fewer: the same changes.
            "precommit-compact",
            "changelog.precommit-compact.thread-num",
            "changelog.precommit-compact.buffer-size")) {
      harmless(key, operators);
    }
    for (String key :
        List.of(
            "scan.watermark.emit.strategy",
            "scan.watermark.alignment.group",
            "scan.watermark.idle-timeout",
            "scan.watermark.alignment.max-drift",
            "scan.watermark.alignment.update-interval")) {
      harmless(key, "Flink watermarks");
    }
    for (String key :
        List.of(
            "lookup.async",
            "lookup.async-thread-number",
            "lookup.bootstrap-parallelism",
            "lookup.cache",
            "lookup.dynamic-partition.refresh-interval",
            "lookup.refresh.async",
            "lookup.refresh.async.pending-snapshot-count",
            "lookup.refresh.time-periods-blacklist",
            "scan.partitions")) {
      harmless(key, "Flink lookup joins against the table");
    }
    for (String key :
        List.of(
            "partition.idle-time-to-done",
            "partition.time-interval",
            "partition.mark-done.recover-from-state")) {
      harmless(key, "Flink marks partitions done");
    }
    // Flink SQL's DDL that is not a column of the files: computed and metadata columns, watermarks.
    prefix(
        "schema.",
        "Flink's computed columns and watermarks, which Paimon keeps for Flink's planner; the"
            + " files hold the physical columns alone");
    String interval = "a full compaction on a timer rather than at every commit";
    fixed(
        "changelog-producer.compaction-interval",
        "0 s",
        interval,
        v -> {
          if (!OptionValues.duration(v).isZero()) {
            throw OptionBounds.notImplemented(interval, "0 s");
          }
        });
  }

  private static void harmless(String key, String reason) {
    harmless(key, reason, OptionBounds.none());
  }

  private static void harmless(String key, String reason, OptionBounds<String> check) {
    add(new Rule(key, Support.HARMLESS, reason, check::check));
  }

  private static void refused(String key, String what) {
    add(
        new Rule(
            key,
            Support.REFUSED,
            "changelake does not implement " + what,
            v -> {
              throw OptionBounds.notImplemented(what, "");
            }));
  }

  private static void prefix(String start, String reason) {
    PREFIXES.add(new Rule(start, Support.HARMLESS, reason, v -> {}));
  }

  /** Accepted only at {@code value}, the one changelake behaves as; a boolean in any spelling. */
  private static void fixed(String key, String value, String what) {
    OptionBounds<String> check =
        value.equals("true") || value.equals("false")
            ? v -> {
              if (OptionValues.bool(v) != Boolean.parseBoolean(value)) {
                throw OptionBounds.notImplemented(what, value);
              }
            }
            : OptionBounds.only(value, what);
    fixed(key, value, what, check);
  }

  /** Accepted only where {@code check} finds the value {@code value} in some spelling. */
  private static void fixed(String key, String value, String what, OptionBounds<String> check) {
    add(
        new Rule(
            key,
            Support.FIXED,
            "only '" + value + "': changelake does not implement " + what,
            check::check));
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

  /** The per-column option of a key such as {@code fields.amount.aggregate-function}, or null. */
  static TableOption<?> perColumnOption(String key) {
    Matcher field = FIELD_OPTION.matcher(key);
    return field.matches() ? PER_COLUMN.get(field.group(2)) : null;
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
      TableOption<?> perColumn = perColumnOption(key);
      if (rule != null) {
        rule.check().accept(value);
      } else if (perColumn != null) {
        perColumn.check(value);
      } else {
        throw new IllegalArgumentException(
            "it is not an option changelake knows, so changelake will not act on a table that has"
                + " it; check the spelling (options changelake implements: "
                + ImplementedOptions.ALL.stream()
                    .map(TableOption::key)
                    .collect(Collectors.joining(", "))
                + ")");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "table option '" + key + "' = '" + value + "' is not usable: " + e.getMessage(), e);
    }
  }

  /** Every listed rule: exact keys, then prefixes. */
  public static List<Rule> all() {
    List<Rule> all = new ArrayList<>(RULES.values());
    all.addAll(PREFIXES);
    return all;
  }
}
