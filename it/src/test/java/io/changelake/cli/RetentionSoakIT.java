package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectStore;
import io.changelake.store.S3ProxyServer;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Orders;
import io.changelake.table.PaimonTables;
import io.changelake.table.Rows;
import io.changelake.table.SnapshotCommit;
import io.changelake.table.SnapshotLog;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table that lives long: a streaming write of {@code -Dsoak.commits} commits (skipped without the
 * property) against an in-process S3Proxy, with snapshot expiry, the decoupled changelog lifecycle
 * and automatic tags in the write path, and a consumer that lags up to {@link #LAG} commits behind
 * and never finds a snapshot it still needs gone. At the end it prints what the table holds against
 * its retention limits, checks that our read, Paimon 1.3.1's read and the lagging consumer's folded
 * changelog all equal the rows written, and that {@code clean-orphans --dry-run} lists only the
 * file planted in the table (retention, deleted automatic tags included, leaves no orphan behind),
 * and after the real clean every retained snapshot, the whole retained changelog and Paimon's read
 * are whole.
 *
 * <p>Run: {@code mvn -B -o -pl it -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=RetentionSoakIT -Dsoak.commits=1000}
 */
class RetentionSoakIT {

  private static final TablePath PATH = new TablePath("db", "orders");
  private static final int LAG = 40;
  private static final int KEYS = 2_000;

  private static final Map<String, String> OPTIONS =
      Map.ofEntries(
          Map.entry("bucket", "2"),
          Map.entry("changelog-producer", "lookup"),
          Map.entry("snapshot.num-retained.min", "10"),
          Map.entry("snapshot.num-retained.max", "30"),
          Map.entry("snapshot.time-retained", "5 s"),
          Map.entry("changelog.num-retained.max", "120"),
          Map.entry("changelog.time-retained", "1 min"),
          Map.entry("tag.automatic-creation", "process-time"),
          Map.entry("tag.creation-period-duration", "10 s"),
          Map.entry("tag.num-retained-max", "3"));

  @TempDir Path folder;

  @Test
  void aLongStreamingWriteStaysWithinItsRetentionAndLosesNothing() throws Exception {
    String commitsProperty = System.getProperty("soak.commits");
    assumeTrue(commitsProperty != null, "set -Dsoak.commits=N to run the soak");
    int commits = Integer.parseInt(commitsProperty);
    TableSchema schema = Orders.schema(OPTIONS);
    Map<Long, Object[]> truth = new TreeMap<>();
    Map<Long, Object[]> consumed = new TreeMap<>();
    Random random = new Random(2026);
    long started = System.nanoTime();
    int lagMax = 0;
    try (S3ProxyServer s3 = S3ProxyServer.startOnDisk(folder);
        ObjectStore store = s3.openStore("soak")) {
      Table table = Table.create(store, PATH, schema);
      table.consumers().record("lagging", 1);
      SnapshotCommit commit = table.newCommit("soak");
      for (long id = 1; id <= commits; id++) {
        try (TableWriter writer = table.newWriter()) {
          for (int i = 0; i < 20; i++) {
            long key = random.nextInt(KEYS);
            if (random.nextInt(10) == 0 && truth.containsKey(key)) {
              writer.write(RowKind.DELETE, truth.remove(key));
            } else {
              Object[] row = Orders.row(key, (long) random.nextInt(50), id * 100 + i);
              writer.write(RowKind.INSERT, row);
              truth.put(key, row);
            }
          }
          commit.commit(id, writer.prepareCommit(id));
        }
        if (id % LAG == 0 || id == commits) {
          lagMax = Math.max(lagMax, catchUp(table, consumed));
        }
      }
      long seconds = (System.nanoTime() - started) / 1_000_000_000L;
      Table table2 = Table.open(store, PATH);
      Rows.assertSameRows(truth.values(), table2.newRead().readAll());
      Rows.assertSameRows(truth.values(), consumed.values());
      assertEquals(0, commit.failedExpiries());

      long snapshots = table2.snapshots().listIds().size();
      long changelogs = count(store, PATH.changelogFolder(), "changelog-");
      long tags = table2.tags().list().size();
      long manifests = count(store, PATH.manifestFolder(), "");
      long dataFiles = 0;
      long changelogFiles = 0;
      long bytes = 0;
      for (ObjectInfo info : store.list(PATH.root())) {
        bytes += info.size();
        String name = info.path().substring(info.path().lastIndexOf('/') + 1);
        if (info.path().contains("/bucket-")) {
          if (name.startsWith("data-")) {
            dataFiles++;
          } else if (name.startsWith("changelog-")) {
            changelogFiles++;
          }
        }
      }
      System.out.printf(
          "SOAK commits=%d seconds=%d latest-snapshot=%d%n",
          commits, seconds, table2.snapshots().latestId().orElseThrow());
      System.out.printf(
          "SOAK snapshots=%d (snapshot.num-retained.min=10 max=30; the lagging consumer holds"
              + " at most %d behind)%n",
          snapshots, lagMax);
      System.out.printf(
          "SOAK long-lived-changelogs=%d (changelog.num-retained.max=120, counted with the"
              + " snapshots)%n",
          changelogs);
      System.out.printf("SOAK tags=%d (tag.num-retained-max=3)%n", tags);
      System.out.printf(
          "SOAK manifest-files=%d data-files=%d changelog-files=%d bytes=%d rows=%d%n",
          manifests, dataFiles, changelogFiles, bytes, truth.size());
      assertTrue(snapshots <= 30 + 2L * LAG, "snapshots " + snapshots);
      assertTrue(snapshots + changelogs <= 120 + 2L * LAG, "changelogs " + changelogs);
      assertTrue(tags <= 3, "tags " + tags);

      // Paimon reads what S3Proxy keeps on disk, through its local file system.
      Path tableFolder = folder.resolve(s3.bucket()).resolve("soak").resolve(PATH.root());
      assertTrue(Files.isDirectory(tableFolder.resolve("snapshot")), tableFolder.toString());
      Rows.assertSameRows(
          truth.values(), PaimonTables.readAll(PaimonTables.open(tableFolder), schema));

      // One planted file no snapshot names: the dry run must list it and nothing else.
      String planted = PATH.bucketFolder("", 0) + "data-planted-orphan-0.parquet";
      store.write(planted, new byte[] {1, 2, 3});
      Thread.sleep(1_500);
      String report = cleanOrphans(folder.resolve(s3.bucket()).resolve("soak"), "--dry-run");
      List<String> listed = new ArrayList<>();
      for (String line : report.split("\n")) {
        if (line.startsWith("  ")) {
          listed.add(line.trim());
        }
      }
      assertEquals(List.of("bucket-0/data-planted-orphan-0.parquet"), listed, report);
      long listedManifests = listed.stream().filter(p -> p.startsWith("manifest/")).count();
      System.out.printf(
          "SOAK clean-orphans --dry-run lists %d files (%d manifests, %d data files, the planted"
              + " one among them)%n",
          listed.size(), listedManifests, listed.size() - listedManifests);
      cleanOrphans(folder.resolve(s3.bucket()).resolve("soak"));
      assertRetainedAreWhole(Table.open(store, PATH), store, truth);
      Rows.assertSameRows(
          truth.values(), PaimonTables.readAll(PaimonTables.open(tableFolder), schema));
    }
  }

  /** Runs {@code ./changelake clean-orphans} on the soak table, for files older than 1 s. */
  private static String cleanOrphans(Path warehouse, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "clean-orphans",
                "--warehouse",
                warehouse.toString(),
                "--database",
                "db",
                "--table",
                "orders",
                "--older-than",
                "1s"));
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  /**
   * Every retained snapshot reads, the latest to the rows written, and the whole retained changelog
   * (the long-lived changelogs, then the snapshots) reads to its end.
   */
  private static void assertRetainedAreWhole(
      Table table, ObjectStore store, Map<Long, Object[]> truth) throws Exception {
    for (long id : table.snapshots().listIds()) {
      table.newRead().readAll(table.snapshots().read(id));
    }
    Rows.assertSameRows(truth.values(), table.newRead().readAll());
    long latest = table.snapshots().latestId().orElseThrow();
    long first =
        SnapshotLog.changelogs(store, PATH)
            .earliestId()
            .orElse(table.snapshots().earliestId().orElseThrow());
    ChangelogScan scan = table.newChangelogScan();
    long changes = 0;
    for (ChangelogTask task : scan.between(first - 1, latest)) {
      try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
        while (reader.hasNext()) {
          reader.next();
          changes++;
        }
      }
    }
    assertTrue(changes > 0);
  }

  /**
   * The lagging consumer reads every change from its position to the latest snapshot, folds them,
   * and records its progress; returns how many snapshots it was behind.
   */
  private static int catchUp(Table table, Map<Long, Object[]> state) throws Exception {
    long next = table.consumers().nextSnapshot("lagging").orElseThrow();
    long latest = table.snapshots().latestId().orElseThrow();
    ChangelogScan scan = table.newChangelogScan();
    for (ChangelogTask task : scan.between(next - 1, latest)) {
      try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
        while (reader.hasNext()) {
          KeyValue change = reader.next();
          Object[] row = change.value();
          long key = (Long) row[0];
          if (change.kind() == RowKind.INSERT || change.kind() == RowKind.UPDATE_AFTER) {
            state.put(key, Arrays.copyOf(row, row.length));
          } else if (change.kind() == RowKind.DELETE) {
            state.remove(key);
          }
        }
      }
    }
    table.consumers().record("lagging", latest + 1);
    return (int) (latest + 1 - next);
  }

  private static long count(ObjectStore store, String folder, String prefix) throws Exception {
    return store.list(folder + prefix).size();
  }

  /** Runs the command line in this JVM and returns what it printed. */
  private static String run(String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      int code = Changelake.execute(args);
      assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(original);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
