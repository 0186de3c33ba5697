package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.ManifestEntry;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.store.S3ProxyServer;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight write-only committers (appenders that leave compaction to another job) race on one table,
 * 200 commits in all: every commit lands exactly once, snapshot ids run 1..200 without a gap, and
 * no manifest names a missing file.
 */
class ConcurrentCommitTest {

  static final int COMMITTERS = 8;
  static final int COMMITS_EACH = 25;
  static final int ROWS_PER_COMMIT = 3;

  @TempDir Path warehouse;

  @Test
  void eightCommittersRacingOnLocalDiskLandEveryCommitOnceWithoutGaps() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      raceAndVerify(store);
    }
  }

  @Test
  void eightCommittersRacingOnS3LandEveryCommitOnceWithoutGaps() throws Exception {
    try (S3ProxyServer s3 = S3ProxyServer.startInMemory();
        ObjectStore store = s3.openStore("warehouse")) {
      raceAndVerify(store);
    }
  }

  /** Runs the race on a store and checks the table it leaves; shared with the S3 variant. */
  static void raceAndVerify(ObjectStore store) throws Exception {
    TablePath path = new TablePath("db", "race");
    // Retry waits capped at 500 ms, not Paimon's 10 s: eight committers racing through 200 commits
    // would otherwise spend minutes asleep. BackoffTest proves the bounds.
    Table table =
        Table.create(
            store,
            path,
            Orders.schema(
                Map.of(
                    "bucket",
                    "4",
                    "commit.max-retries",
                    "100",
                    "write-only",
                    "true",
                    "commit.max-retry-wait",
                    "500 ms")));
    ExecutorService pool = Executors.newFixedThreadPool(COMMITTERS);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int c = 0; c < COMMITTERS; c++) {
        int committer = c;
        futures.add(
            pool.submit(
                () -> {
                  SnapshotCommit commit = table.newCommit("committer-" + committer);
                  for (int i = 0; i < COMMITS_EACH; i++) {
                    try (TableWriter writer = table.newWriter()) {
                      for (int r = 0; r < ROWS_PER_COMMIT; r++) {
                        long key = ((long) committer * COMMITS_EACH + i) * ROWS_PER_COMMIT + r;
                        writer.write(RowKind.INSERT, Orders.row(key, 1L, key));
                      }
                      commit.commit(i + 1, writer.prepareCommit(i + 1));
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    int total = COMMITTERS * COMMITS_EACH;
    List<Long> ids = table.snapshots().listIds();
    List<Long> expectedIds = new ArrayList<>();
    for (long id = 1; id <= total; id++) {
      expectedIds.add(id);
    }
    assertEquals(expectedIds, ids);

    Set<String> commits = new HashSet<>();
    for (long id : ids) {
      Snapshot s = table.snapshots().read(id);
      assertTrue(commits.add(s.commitUser() + "#" + s.commitIdentifier()), "twice: " + s);
    }
    assertEquals(total, commits.size());

    Snapshot latest = table.snapshots().latest().orElseThrow();
    assertEquals((long) total * ROWS_PER_COMMIT, latest.totalRecordCount());
    BinaryRowCodec partitions = new BinaryRowCodec(table.schema().partitionType());
    for (ManifestEntry e : table.newScan().liveFiles(latest)) {
      String partitionPath =
          TablePath.partitionPath(
              table.schema().partitionType(), partitions.decode(e.partition().bytes()), "");
      String file = path.bucketFolder(partitionPath, e.bucket()) + e.file().fileName();
      assertTrue(store.exists(file), "a manifest names a missing file: " + file);
    }
    assertEquals(total * ROWS_PER_COMMIT, table.newRead().readAll().size());
  }
}
