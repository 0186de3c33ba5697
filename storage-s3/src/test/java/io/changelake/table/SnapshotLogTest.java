package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotLogTest {

  static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path warehouse;

  private static Snapshot snapshot(long id, String user, long identifier) {
    return new Snapshot(
        id,
        0,
        "base-" + id,
        1L,
        "delta-" + id,
        1L,
        null,
        null,
        null,
        user,
        identifier,
        CommitKind.APPEND,
        id,
        0,
        0,
        0,
        null);
  }

  /** {@code store}, recording the path of every read. */
  private static ObjectStore recordingReads(ObjectStore store, List<String> reads) {
    return (ObjectStore)
        Proxy.newProxyInstance(
            ObjectStore.class.getClassLoader(),
            new Class<?>[] {ObjectStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("read")) {
                reads.add((String) args[0]);
              }
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void newestFirstWalkStopsAtTheNewestMatchReadingOnlyWhatItPasses() throws Exception {
    try (ObjectStore disk = new LocalObjectStore(warehouse)) {
      List<String> reads = new ArrayList<>();
      SnapshotLog log = new SnapshotLog(recordingReads(disk, reads), PATH);
      for (long id = 1; id <= 6; id++) {
        assertTrue(log.tryCreate(snapshot(id, id % 2 == 0 ? "a" : "b", id)));
      }
      Snapshot latest = log.read(6);
      reads.clear();
      Optional<Snapshot> newestOfB = log.newestWhere(latest, s -> s.commitUser().equals("b"));
      assertEquals(5, newestOfB.orElseThrow().id());
      assertEquals(List.of(log.path(5)), snapshotReads(reads));
      reads.clear();
      assertEquals(6, log.newestWhere(latest, s -> true).orElseThrow().id());
      assertEquals(List.of(), snapshotReads(reads));
      reads.clear();
      assertEquals(Optional.empty(), log.newestWhere(latest, s -> s.commitUser().equals("c")));
      assertEquals(
          List.of(log.path(5), log.path(4), log.path(3), log.path(2), log.path(1)),
          snapshotReads(reads));
    }
  }

  @Test
  void newestFirstWalkEndsAtTheEarliestSnapshotStillPresent() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      SnapshotLog log = new SnapshotLog(store, PATH);
      for (long id = 1; id <= 4; id++) {
        log.tryCreate(snapshot(id, "a", id));
      }
      log.delete(1);
      log.delete(2);
      assertEquals(Optional.empty(), log.newestWhere(log.read(4), s -> s.commitIdentifier() < 3));
    }
  }

  private static List<String> snapshotReads(List<String> reads) {
    return reads.stream().filter(p -> p.contains("/snapshot/snapshot-")).toList();
  }
}
