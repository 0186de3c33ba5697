package io.changelake.it.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.ObjectStore;
import io.changelake.store.S3ProxyServer;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Table;
import io.changelake.table.TableNotFoundException;
import io.changelake.table.TablePath;
import io.changelake.templates.TemplateCatalog;
import io.changelake.types.KeyValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CDC-to-table with {@code --streaming} on the DirectRunner against an in-process S3Proxy: one
 * running pipeline picks up three waves of event files, each dropped into the input folder only
 * once the table shows the wave before it, and commits each wave in its own, later snapshots.
 */
class CdcToTableStreamingIT {

  private static final TablePath ORDERS = new TablePath("shop", "orders");

  /** How long one wave may take to show in the table; a wave usually takes a few seconds. */
  private static final Duration WAVE_TIMEOUT = Duration.ofSeconds(90);

  @TempDir Path local;

  /** One change of the changelog and the snapshot it is in. */
  private record Change(long snapshot, String change) {}

  /** A wave of events, the table's rows once it is in, and the changelog it adds. */
  private record Wave(OrderEvents events, List<String> rows, List<String> changes) {}

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void picksUpNewFilesWhileRunningAndCommitsEachWaveInLaterSnapshots() throws Exception {
    List<Wave> waves =
        List.of(
            new Wave(
                new OrderEvents().create(1001, 10, 100).create(1002, 20, 50).create(1003, 20, 70),
                List.of("[1001, 10, 100]", "[1002, 20, 50]", "[1003, 20, 70]"),
                List.of("+I[1001, 10, 100]", "+I[1002, 20, 50]", "+I[1003, 20, 70]")),
            // The price correction of order 1001, with its before-image, a cancelled order and a
            // new one.
            new Wave(
                new OrderEvents()
                    .update(1001, 10, 100, 80)
                    .delete(1002, 20, 50)
                    .create(1004, 30, 5),
                List.of("[1001, 10, 80]", "[1003, 20, 70]", "[1004, 30, 5]"),
                List.of(
                    "-U[1001, 10, 100]",
                    "+U[1001, 10, 80]",
                    "-D[1002, 20, 50]",
                    "+I[1004, 30, 5]")),
            new Wave(
                new OrderEvents().update(1003, 20, 70, 75).create(1005, 10, 20),
                List.of("[1001, 10, 80]", "[1003, 20, 75]", "[1004, 30, 5]", "[1005, 10, 20]"),
                List.of("-U[1003, 20, 70]", "+U[1003, 20, 75]", "+I[1005, 10, 20]")));

    Path input = Files.createDirectories(local.resolve("in"));
    try (S3ProxyServer s3 = S3ProxyServer.startInMemory();
        ObjectStore store = s3.openStore("cdc-streaming")) {
      List<String> args =
          new ArrayList<>(
              TemplatesIT.cdcOptions(
                  "s3://" + s3.bucket() + "/cdc-streaming",
                  input.resolve("*.json"),
                  local.resolve("dead"),
                  "lookup"));
      args.addAll(TemplatesIT.s3Options(s3.endpoint().toString()));
      args.addAll(
          List.of(
              "--streaming=true",
              "--filePollIntervalSeconds=1",
              "--commitIntervalSeconds=1",
              "--blockOnRun=false"));
      List<String> changesSoFar = new ArrayList<>();
      try (TemplateRun.Running pipeline =
          TemplateRun.startWatched(TemplateCatalog.CDC_TO_TABLE, args)) {
        for (int w = 0; w < waves.size(); w++) {
          Wave wave = waves.get(w);
          land(wave.events(), input.resolve("wave-" + (w + 1) + ".json"));
          changesSoFar.addAll(wave.changes());
          awaitTable(pipeline, store, w + 1, wave.rows(), sorted(changesSoFar));
        }
        // Still running after every file was read: it keeps watching until cancelled.
        assertEquals(PipelineResult.State.RUNNING, pipeline.state());
      }

      assertEquals(waves.get(waves.size() - 1).rows(), TemplateRun.rows(store, "orders"));
      List<Change> changelog = changelog(store);
      assertEquals(sorted(changesSoFar), sorted(changelog.stream().map(Change::change).toList()));
      // The lookup producer turned the correction into -U(100), +U(80), after order 1001's +I.
      assertEquals(
          List.of("+I[1001, 10, 100]", "-U[1001, 10, 100]", "+U[1001, 10, 80]"),
          changelog.stream().map(Change::change).filter(c -> c.contains("[1001,")).toList());
      // Each wave's changes sit in snapshots after all of the wave before it: every file was
      // picked up by the running pipeline and committed in a later snapshot.
      long previousLast = 0;
      for (int w = 0; w < waves.size(); w++) {
        Set<String> ofWave = new HashSet<>(waves.get(w).changes());
        TreeSet<Long> snapshots = new TreeSet<>();
        changelog.stream()
            .filter(c -> ofWave.contains(c.change()))
            .forEach(c -> snapshots.add(c.snapshot()));
        assertTrue(
            snapshots.first() > previousLast,
            "wave "
                + (w + 1)
                + " in snapshots "
                + snapshots
                + ", the wave before it up to "
                + previousLast);
        previousLast = snapshots.last();
      }
      // One job wrote them all: every snapshot has the same commit user.
      Table table = Table.open(store, ORDERS);
      Set<String> users = new HashSet<>();
      for (long id : table.snapshots().listIds()) {
        users.add(table.snapshots().read(id).commitUser());
      }
      assertEquals(1, users.size(), users.toString());
    }
  }

  /**
   * Puts a wave's file into the input folder in one rename, so the pipeline never matches it half
   * written.
   */
  private void land(OrderEvents events, Path file) throws IOException {
    Path staged = events.writeTo(local.resolve("staging").resolve(file.getFileName()));
    Files.move(staged, file, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Polls the table until it holds {@code rows} and its changelog {@code changes} (sorted), or
   * {@link #WAVE_TIMEOUT} passes; then asserts it. A pipeline that ends meanwhile fails the test
   * with its own error.
   */
  private static void awaitTable(
      TemplateRun.Running pipeline,
      ObjectStore store,
      int wave,
      List<String> rows,
      List<String> changes)
      throws Exception {
    long deadline = System.nanoTime() + WAVE_TIMEOUT.toNanos();
    List<String> seenRows = List.of();
    List<String> seenChanges = List.of();
    while (System.nanoTime() < deadline) {
      pipeline.assertRunning("wave " + wave + " showed in the table");
      try {
        seenRows = TemplateRun.rows(store, "orders");
        seenChanges = sorted(changelog(store).stream().map(Change::change).toList());
      } catch (TableNotFoundException notCreatedYet) {
        // The pipeline creates the table when its writers start.
      }
      if (seenRows.equals(rows) && seenChanges.equals(changes)) {
        return;
      }
      Thread.sleep(200);
    }
    assertEquals(rows, seenRows, "rows after wave " + wave + " within " + WAVE_TIMEOUT);
    assertEquals(changes, seenChanges, "changelog after wave " + wave + " within " + WAVE_TIMEOUT);
  }

  /** The table's changelog: each snapshot's changes, in snapshot order. */
  private static List<Change> changelog(ObjectStore store) throws IOException {
    Table table = Table.open(store, ORDERS);
    OptionalLong latest = table.snapshots().latestId();
    ChangelogScan scan = table.newChangelogScan();
    List<Change> changes = new ArrayList<>();
    for (long id = 1; latest.isPresent() && id <= latest.getAsLong(); id++) {
      for (ChangelogTask task : scan.changes(id)) {
        try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
          while (reader.hasNext()) {
            KeyValue kv = reader.next();
            // order_id, store_id, amount; the _sequence column after them is left out.
            changes.add(
                new Change(
                    id, kv.kind().shortString() + Arrays.toString(Arrays.copyOf(kv.value(), 3))));
          }
        }
      }
    }
    return changes;
  }

  private static List<String> sorted(List<String> changes) {
    return changes.stream().sorted().toList();
  }
}
