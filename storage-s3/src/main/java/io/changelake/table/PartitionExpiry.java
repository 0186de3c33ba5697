package io.changelake.table;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.FileKind;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.schema.RetentionOptions;
import io.changelake.schema.TableOptions;
import io.changelake.types.DataField;
import io.changelake.types.TypeRoot;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops the partitions of a table that are older than {@code partition.expiration-time}, as Paimon
 * 1.3.1's {@code PartitionExpire}: one OVERWRITE snapshot that deletes every data file (and hash
 * index) of the expired partitions, committed by the committer that found them, under the
 * identifier of the commit after which it looked.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>effect</th></tr>
 *   <tr><td>partition.expiration-time</td><td>unset (off)</td><td>a partition older than this
 *       is dropped</td></tr>
 *   <tr><td>partition.expiration-check-interval</td><td>1 h</td><td>a committer looks after a
 *       commit once this long has passed since it last looked (or was made); 0 at every
 *       commit</td></tr>
 *   <tr><td>partition.expiration-strategy</td><td>values-time</td><td>values-time: the time the
 *       partition values spell; update-time: the newest creation time of the data files its
 *       manifests list (live, or removed since the manifests were last merged), as Paimon's</td></tr>
 *   <tr><td>partition.timestamp-pattern</td><td>unset</td><td>how the values spell the time:
 *       {@code $dt $hour:00:00} puts columns in; unset, the first partition column</td></tr>
 *   <tr><td>partition.timestamp-formatter</td><td>unset</td><td>a java.time pattern for that text
 *       (a date-only pattern means midnight); unset, {@code yyyy-MM-dd} with an optional {@code
 *       HH:mm:ss[.fraction]}</td></tr>
 *   <tr><td>partition.expiration-max-num</td><td>100</td><td>partitions one look drops at most,
 *       the first by their values' text</td></tr>
 * </table>
 *
 * <p>Times are the machine's local time, as in Paimon. A value the strategy cannot read as a time
 * (not date-formatted, or null) never expires: it is logged, and the partition stays. Values are
 * the text Paimon gives them: a DATE column is its day number, so it reads as a time only through a
 * pattern and formatter that take it so, as in Paimon; a DECIMAL or INT of digits reads through a
 * formatter such as {@code yyyyMMdd}. A table partitioned by a TIMESTAMP or TIMESTAMP_LTZ column
 * never expires (a warning says so): Paimon 1.3.1 selects such partitions but fails to drop them,
 * under either strategy, and the two engines must leave the same table.
 *
 * <p>Readers: an OVERWRITE snapshot carries no changelog, so a changelog read goes on past it
 * without retracting the dropped rows, as Paimon's streaming read does (its {@code
 * streaming-read-overwrite} is false). Not on {@code write-only} tables, whose dedicated compaction
 * runs it. A failure never fails the commit after which it ran: {@link SnapshotCommit} logs it,
 * counts it, and the next commit looks again.
 */
public final class PartitionExpiry {

  private static final Logger LOG = LoggerFactory.getLogger(PartitionExpiry.class);

  /** Paimon's default partition time text: a date, optionally with a time of day. */
  private static final DateTimeFormatter DATE_TIME =
      date()
          .optionalStart()
          .appendLiteral(" ")
          .appendValue(ChronoField.HOUR_OF_DAY, 1, 2, SignStyle.NORMAL)
          .appendLiteral(':')
          .appendValue(ChronoField.MINUTE_OF_HOUR, 1, 2, SignStyle.NORMAL)
          .appendLiteral(':')
          .appendValue(ChronoField.SECOND_OF_MINUTE, 1, 2, SignStyle.NORMAL)
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .optionalEnd()
          .toFormatter()
          .withResolverStyle(ResolverStyle.LENIENT);

  private static final DateTimeFormatter DATE =
      date().toFormatter().withResolverStyle(ResolverStyle.LENIENT);

  /** Year-month-day, each field of one digit or more. */
  private static DateTimeFormatterBuilder date() {
    return new DateTimeFormatterBuilder()
        .appendValue(ChronoField.YEAR, 1, 10, SignStyle.NORMAL)
        .appendLiteral('-')
        .appendValue(ChronoField.MONTH_OF_YEAR, 1, 2, SignStyle.NORMAL)
        .appendLiteral('-')
        .appendValue(ChronoField.DAY_OF_MONTH, 1, 2, SignStyle.NORMAL);
  }

  private final Table table;
  private final Duration expirationTime;
  private final Duration checkInterval;
  private final boolean byValues;
  private final int maxNum;
  private final String pattern;
  private final String formatter;
  private final List<DataField> partitionFields;
  private LocalDateTime lastCheck;

  private PartitionExpiry(Table table, Duration expirationTime, LocalDateTime now) {
    TableOptions options = table.options();
    this.table = table;
    this.expirationTime = expirationTime;
    this.checkInterval = options.get(RetentionOptions.PARTITION_EXPIRATION_CHECK_INTERVAL);
    this.byValues =
        options.get(RetentionOptions.PARTITION_EXPIRATION_STRATEGY).equals("values-time");
    this.maxNum = options.get(RetentionOptions.PARTITION_EXPIRATION_MAX_NUM);
    this.pattern = options.get(RetentionOptions.PARTITION_TIMESTAMP_PATTERN);
    this.formatter = options.get(RetentionOptions.PARTITION_TIMESTAMP_FORMATTER);
    this.partitionFields = table.schema().partitionType().fields();
    this.lastCheck = now;
  }

  /**
   * The partition expiry of a table, as of {@code now} (its first look is an interval later); null
   * if {@code partition.expiration-time} is unset or the table has no partition.
   */
  static PartitionExpiry of(Table table, LocalDateTime now) {
    Duration expirationTime = table.options().get(RetentionOptions.PARTITION_EXPIRATION_TIME);
    if (expirationTime == null || table.schema().partitionKeys().isEmpty()) {
      return null;
    }
    for (DataField field : table.schema().partitionType().fields()) {
      TypeRoot root = field.type().root();
      if (root == TypeRoot.TIMESTAMP || root == TypeRoot.TIMESTAMP_LTZ) {
        // Paimon 1.3.1 picks such a partition but cannot drop it (it casts the value's text,
        // 2026-11-21T09:30, back to a timestamp and fails), under either strategy: dropping it
        // here would make this table differ from the same table maintained by Paimon.
        LOG.warn(
            "partition.expiration-time is set on {}, but its partition column {} is a {}: such"
                + " partitions are never expired, as in Paimon 1.3.1 (whose committer fails to drop"
                + " them); drop them by hand, or partition by a DATE-formatted string",
            table.location(),
            field.name(),
            root);
        return null;
      }
    }
    return new PartitionExpiry(table, expirationTime, now);
  }

  /**
   * Drops the expired partitions if a look is due at {@code now}, through {@code commit} under
   * {@code identifier}; the next look is due an interval after a look that succeeded.
   *
   * @return the partitions dropped (column to value text), empty if none or not due
   */
  List<Map<String, String>> expireIfDue(LocalDateTime now, SnapshotCommit commit, long identifier)
      throws IOException {
    if (!checkInterval.isZero() && !now.isAfter(lastCheck.plus(checkInterval))) {
      return List.of();
    }
    List<Map<String, String>> dropped = expire(now.minus(expirationTime), commit, identifier);
    lastCheck = now;
    return dropped;
  }

  /** Drops the partitions older than {@code expireBefore}, at most partition.expiration-max-num. */
  List<Map<String, String>> expire(
      LocalDateTime expireBefore, SnapshotCommit commit, long identifier) throws IOException {
    Optional<Snapshot> latest = table.snapshots().latest();
    if (latest.isEmpty()) {
      return List.of();
    }
    TableScan scan = table.newScan();
    Map<SerializedRow, List<ManifestEntry>> byPartition = new HashMap<>();
    for (ManifestEntry e : scan.liveFiles(latest.get())) {
      byPartition.computeIfAbsent(e.partition(), p -> new ArrayList<>()).add(e);
    }
    Map<SerializedRow, Long> updated = byValues ? Map.of() : updateTimes(scan, latest.get());
    BinaryRowCodec codec = new BinaryRowCodec(table.schema().partitionType());
    // Sorted by the values' text joined with commas, as Paimon picks the first max-num.
    TreeMap<String, Map.Entry<List<String>, SerializedRow>> expired = new TreeMap<>();
    for (Map.Entry<SerializedRow, List<ManifestEntry>> p : byPartition.entrySet()) {
      List<String> values = valueTexts(codec.decode(p.getKey().bytes()));
      if (byValues
          ? olderByValues(values, expireBefore)
          : olderByUpdate(updated.get(p.getKey()), expireBefore)) {
        expired.put(String.join(",", values), Map.entry(values, p.getKey()));
      }
    }
    if (expired.isEmpty()) {
      return List.of();
    }
    List<Map<String, String>> dropped = new ArrayList<>();
    List<ManifestEntry> deletes = new ArrayList<>();
    for (Map.Entry<List<String>, SerializedRow> p : expired.values()) {
      if (dropped.size() == maxNum) {
        break;
      }
      List<String> values = p.getKey();
      Map<String, String> spec = new LinkedHashMap<>();
      for (int i = 0; i < partitionFields.size(); i++) {
        spec.put(partitionFields.get(i).name(), values.get(i));
      }
      dropped.add(spec);
      for (ManifestEntry e : byPartition.get(p.getValue())) {
        deletes.add(
            new ManifestEntry(
                FileKind.DELETE, e.partition(), e.bucket(), e.totalBuckets(), e.file()));
      }
    }
    Set<SerializedRow> droppedRows =
        deletes.stream().map(ManifestEntry::partition).collect(Collectors.toSet());
    List<IndexManifestEntry> indexDeletes = new ArrayList<>();
    for (IndexManifestEntry e : scan.indexFiles(latest.get())) {
      if (droppedRows.contains(e.partition())) {
        indexDeletes.add(
            new IndexManifestEntry(FileKind.DELETE, e.partition(), e.bucket(), e.file()));
      }
    }
    Snapshot snapshot = commit.overwrite(identifier, deletes, indexDeletes);
    LOG.info(
        "dropped expired partitions {} of {} in snapshot {}",
        dropped,
        table.location(),
        snapshot.id());
    return dropped;
  }

  /** The values as Paimon's strategies spell them (its internal values' text); null stays null. */
  private List<String> valueTexts(Object[] values) {
    List<String> texts = new ArrayList<>(values.length);
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      TypeRoot root = partitionFields.get(i).type().root();
      if (v == null) {
        texts.add(null);
      } else if (root == TypeRoot.DATE) {
        texts.add(Long.toString(((LocalDate) v).toEpochDay()));
      } else if (v instanceof Instant instant) {
        texts.add(LocalDateTime.ofInstant(instant, ZoneOffset.UTC).toString());
      } else if (v instanceof BigDecimal decimal) {
        texts.add(decimal.toPlainString());
      } else {
        texts.add(v.toString());
      }
    }
    return texts;
  }

  private boolean olderByValues(List<String> values, LocalDateTime expireBefore) {
    String text;
    if (pattern == null) {
      text = values.get(0);
    } else {
      text = pattern;
      for (int i = 0; i < partitionFields.size(); i++) {
        if (values.get(i) == null) {
          text = null;
          break;
        }
        text =
            text.replaceAll(
                "\\$" + partitionFields.get(i).name(), Matcher.quoteReplacement(values.get(i)));
      }
    }
    if (text == null) {
      LOG.warn(
          "partition {} of {} holds a null value: it never expires by its values; drop it by hand"
              + " or use partition.expiration-strategy = update-time",
          values,
          table.location());
      return false;
    }
    try {
      return expireBefore.isAfter(toTime(text));
    } catch (DateTimeParseException | IllegalArgumentException e) {
      LOG.warn(
          "cannot read a time from partition {} of {} ({}): it never expires by its values; check"
              + " partition.timestamp-pattern and partition.timestamp-formatter, drop it by hand, or"
              + " use partition.expiration-strategy = update-time",
          values,
          table.location(),
          e.getMessage());
      return false;
    }
  }

  private LocalDateTime toTime(String text) {
    DateTimeFormatter full;
    DateTimeFormatter dateOnly;
    if (formatter == null) {
      full = DATE_TIME;
      dateOnly = DATE;
    } else {
      full = DateTimeFormatter.ofPattern(formatter, Locale.ROOT);
      dateOnly = full;
    }
    try {
      return LocalDateTime.parse(text, full);
    } catch (DateTimeParseException e) {
      return LocalDateTime.of(LocalDate.parse(text, dateOnly), LocalTime.MIDNIGHT);
    }
  }

  /**
   * Each partition's update time, epoch milliseconds: the newest creation time among the entries of
   * its snapshot's manifests, ADD and DELETE, as Paimon's {@code PartitionEntry} merges them. A
   * file a compaction removed without writing a newer one (its rows all retracted) so still counts
   * until a manifest merge drops its entries; the live files alone would make the partition older
   * than Paimon finds it.
   */
  private static Map<SerializedRow, Long> updateTimes(TableScan scan, Snapshot snapshot)
      throws IOException {
    Map<SerializedRow, Long> updated = new HashMap<>();
    for (ManifestEntry e : scan.dataEntries(snapshot)) {
      Long created = e.file().creationTimeMillis();
      if (created != null) {
        // Paimon stores a file's local wall-clock time as if it were UTC, and reads it back so.
        LocalDateTime wall =
            LocalDateTime.ofEpochSecond(
                Math.floorDiv(created, 1000),
                Math.floorMod(created, 1000) * 1_000_000,
                ZoneOffset.UTC);
        updated.merge(
            e.partition(),
            wall.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli(),
            Math::max);
      }
    }
    return updated;
  }

  /** Whether the partition was last updated before the time (update-time). */
  private static boolean olderByUpdate(Long updated, LocalDateTime expireBefore) {
    long before = expireBefore.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    return updated == null || before > updated;
  }
}
