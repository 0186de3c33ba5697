package io.changelake.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.table.OrphanFilesClean;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.http.apache.ApacheHttpClient;

/**
 * The S3 store under the faults S3 gives (503 SlowDown, 500, 429, lost answers, connection resets,
 * slow answers) on every operation it uses: each operation retries through them, and a table
 * written through them loses nothing and shows nothing half-done.
 */
class S3ObjectStoreFaultTest {

  private static final int PART = ObjectStoreContractTest.PART;

  private static S3ProxyServer server;

  @BeforeAll
  static void start() throws Exception {
    server = S3ProxyServer.startInMemory();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static S3Settings settings() {
    return server.settings().toBuilder().multipartPartSize(PART).build();
  }

  private static S3ObjectStore openStore(String prefix, S3Faults faults) {
    return new S3ObjectStore(
        server.bucket(), prefix, settings(), S3ObjectStore.newClient(settings(), faults));
  }

  /** One store operation and the S3 operations it makes. */
  private record Call(String name, Predicate<String> faulted, StoreCall run) {}

  private interface StoreCall {
    void run(ObjectStore store) throws Exception;
  }

  private static List<Call> everyOperation() {
    byte[] big = new byte[PART + 10];
    new Random(1).nextBytes(big);
    return List.of(
        new Call(
            "read", "GetObject"::equals, s -> assertArrayEquals("v".getBytes(UTF_8), s.read("o"))),
        new Call(
            "readRange",
            "GetObject(range)"::equals,
            s -> assertEquals(1, s.readRange("o", 0, 1).length)),
        new Call(
            "stat", "HeadObject"::equals, s -> assertEquals(1, s.stat("o").orElseThrow().size())),
        new Call("write", "PutObject"::equals, s -> s.write("w", "w".getBytes(UTF_8))),
        new Call(
            "createIfAbsent",
            "PutObject(conditional)"::equals,
            s -> assertTrue(s.createIfAbsent("c-" + System.nanoTime(), "mine".getBytes(UTF_8)))),
        new Call("list", "ListObjectsV2"::equals, s -> assertFalse(s.list("").isEmpty())),
        new Call(
            "delete",
            "DeleteObject"::equals,
            s -> {
              s.write("d", new byte[1]);
              s.delete("d");
              assertFalse(s.exists("d"));
            }),
        new Call("multipart create", "CreateMultipartUpload"::equals, s -> writeBig(s, big)),
        new Call("multipart part", "UploadPart"::equals, s -> writeBig(s, big)),
        new Call("multipart complete", "CompleteMultipartUpload"::equals, s -> writeBig(s, big)));
  }

  private static void writeBig(ObjectStore store, byte[] big) throws IOException {
    try (OutputStream out = store.create("big")) {
      out.write(big);
    }
    assertArrayEquals(big, store.read("big"));
  }

  @ParameterizedTest
  @EnumSource(S3Faults.Kind.class)
  void everyOperationGetsThroughTwoFaultsOfEachKind(S3Faults.Kind kind) throws Exception {
    try (S3Faults faults = new S3Faults(ApacheHttpClient.builder().build());
        S3ObjectStore store = openStore("every-" + kind, faults)) {
      store.write("o", "v".getBytes(UTF_8));
      for (Call call : everyOperation()) {
        faults.failNext(call.faulted(), kind, 2);
        call.run().run(store);
        String operation =
            faults.injected().keySet().stream()
                .filter(
                    k ->
                        k.endsWith(" " + kind)
                            && call.faulted().test(k.substring(0, k.lastIndexOf(' '))))
                .findFirst()
                .orElseThrow(() -> new AssertionError(call.name() + ": no " + kind + " injected"));
        // A slow answer is still an answer: the operation needs no second attempt.
        long expected = kind == S3Faults.Kind.SLOW ? 1 : 2;
        assertTrue(faults.injected().get(operation) >= expected, call.name());
        if (kind != S3Faults.Kind.SLOW) {
          assertEquals(2L, faults.injected().get(operation), call.name());
        }
        faults.stop();
      }
      System.out.println("faults injected (" + kind + "): " + faults.injected());
    }
  }

  @Test
  void aMultipartUploadThatCannotFinishIsAbortedThroughFaultsAndLeavesNothing() throws Exception {
    try (S3Faults faults = new S3Faults(ApacheHttpClient.builder().build());
        S3ObjectStore store = openStore("abort", faults)) {
      byte[] big = new byte[PART + 10];
      faults.failNext("UploadPart"::equals, S3Faults.Kind.SLOW_DOWN, 1000);
      IOException e = assertThrows(IOException.class, () -> writeBig(store, big));
      assertTrue(e.getMessage().contains("s3://" + server.bucket() + "/abort/big"), e.getMessage());
      assertFalse(store.exists("big"));
      assertTrue(
          faults.requests().getOrDefault("AbortMultipartUpload", 0L) >= 1,
          faults.requests().toString());

      // The abort itself meets a fault and is retried.
      faults.failNext("UploadPart"::equals, S3Faults.Kind.RESET, 1000);
      IOException again = assertThrows(IOException.class, () -> writeBig(store, big));
      assertFalse(store.exists("big"), again.getMessage());
    }
  }

  private static final RowType ROW_TYPE =
      RowType.of(
          new String[] {"id", "value"},
          new DataType[] {DataType.bigint().notNull(), DataType.bigint()});

  /**
   * 20 commits through random faults: with the default 5 attempts every operation gets through;
   * with 2, many table operations fail, and each failure leaves the table whole.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({"5, 0.15", "2, 0.10"})
  void aTableWrittenThroughRandomFaultsLosesNothingAndShowsNothingHalfDone(
      int attempts, double rate) throws Exception {
    TablePath path = new TablePath("db", "faulty-" + attempts);
    S3Settings faulty = settings().toBuilder().maxAttempts(attempts).build();
    Map<Long, Long> model = new TreeMap<>();
    int failedCommits = 0;
    try (S3Faults faults = new S3Faults(ApacheHttpClient.builder().build());
        S3ObjectStore store =
            new S3ObjectStore(
                server.bucket(), "table", faulty, S3ObjectStore.newClient(faulty, faults));
        S3ObjectStore clean = server.openStore("table", settings())) {
      Table.create(
          clean,
          path,
          TableSchema.create(
              ROW_TYPE,
              List.of(),
              List.of("id"),
              Map.of("bucket", "2", "changelog-producer", "lookup"),
              null));
      faults.randomly(42, rate);
      Random random = new Random(7);
      for (long commit = 1; commit <= 20; commit++) {
        long[][] batch = new long[10][];
        for (int i = 0; i < batch.length; i++) {
          batch[i] = new long[] {random.nextInt(40), random.nextInt(1000)};
        }
        for (int attempt = 0; ; attempt++) {
          try {
            Table table = Table.open(store, path);
            try (TableWriter writer = table.newWriter()) {
              for (long[] row : batch) {
                writer.write(RowKind.INSERT, new Object[] {row[0], row[1]});
              }
              table.newCommit("faulty").commit(commit, writer.prepareCommit(commit));
            }
            break;
          } catch (IOException | UncheckedIOException e) {
            // A table operation that fails says where (a compaction's read surfaces unchecked,
            // from inside the merge); what it half did is invisible.
            failedCommits++;
            assertTrue(e.getMessage().contains("s3://" + server.bucket()), e.getMessage());
            assertTrue(attempt < 40, "commit " + commit + " keeps failing: " + e);
            assertEveryRetainedSnapshotReads(Table.open(clean, path));
          }
        }
        for (long[] row : batch) {
          model.put(row[0], row[1]);
        }
      }
      faults.stop();
      Table table = Table.open(clean, path);
      assertEveryRetainedSnapshotReads(table);
      assertEquals(model, rows(table));
      // What failed attempts left is unreferenced: cleaning it changes nothing.
      int orphans = new OrphanFilesClean(table).clean(Duration.ZERO).size();
      assertEquals(model, rows(table));
      Map<String, Long> injected = faults.injected();
      System.out.println(
          "table under faults (maxAttempts "
              + attempts
              + ", rate "
              + rate
              + "): 20 commits, "
              + failedCommits
              + " failed attempts retried by the caller, "
              + orphans
              + " orphan files cleaned after; requests "
              + faults.requests()
              + "; faults injected "
              + injected);
      if (attempts == 2) {
        assertTrue(failedCommits > 0, "no table operation failed: raise the rate");
      }
      for (String operation :
          List.of("GetObject", "PutObject", "PutObject(conditional)", "ListObjectsV2")) {
        assertTrue(
            injected.keySet().stream().anyMatch(k -> k.startsWith(operation + " ")),
            operation + " got no fault: " + injected);
      }
    }
  }

  private static Map<Long, Long> rows(Table table) throws IOException {
    Map<Long, Long> read = new TreeMap<>();
    for (Object[] row : table.newRead().readAll()) {
      read.put((Long) row[0], (Long) row[1]);
    }
    return read;
  }

  private static void assertEveryRetainedSnapshotReads(Table table) throws IOException {
    var snapshots = table.snapshots();
    if (snapshots.latestId().isEmpty()) {
      return;
    }
    long earliest = snapshots.earliestId().orElseThrow();
    long latest = snapshots.latestId().orElseThrow();
    assertEquals(
        Arrays.asList(java.util.stream.LongStream.rangeClosed(earliest, latest).boxed().toArray()),
        Arrays.asList(snapshots.listIds().toArray()));
    for (long id = earliest; id <= latest; id++) {
      table.newRead().readAll(snapshots.read(id));
    }
  }
}
