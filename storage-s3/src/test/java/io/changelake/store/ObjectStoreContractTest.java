package io.changelake.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ObjectStore} promises, run against each implementation by a subclass. Each test
 * gets a fresh, empty store whose multipart part size (where there is one) is the S3 minimum, 5
 * MiB, so that the large-object tests cross several parts.
 */
abstract class ObjectStoreContractTest {

  static final int PART = (int) S3Settings.MIN_PART_SIZE;

  ObjectStore store;

  /** A fresh, empty store with 5 MiB multipart parts. */
  abstract ObjectStore newStore() throws Exception;

  @BeforeEach
  void openStore() throws Exception {
    store = newStore();
  }

  @AfterEach
  void closeStore() throws Exception {
    store.close();
  }

  static byte[] bytes(int size, long seed) {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    return data;
  }

  @Test
  void readReturnsWhatWriteStored() throws Exception {
    byte[] data = bytes(1000, 1);
    store.write("dir/object", data);
    assertArrayEquals(data, store.read("dir/object"));
  }

  @Test
  void readOfMissingObjectThrowsObjectNotFoundNamingThePath() {
    ObjectNotFoundException e =
        assertThrows(ObjectNotFoundException.class, () -> store.read("no/such"));
    assertEquals("no/such", e.path());
  }

  @Test
  void readRangeReturnsExactlyTheRequestedBytes() throws Exception {
    byte[] data = bytes(1000, 2);
    store.write("object", data);
    assertArrayEquals(Arrays.copyOfRange(data, 100, 350), store.readRange("object", 100, 250));
    assertArrayEquals(data, store.readRange("object", 0, 1000));
    assertArrayEquals(Arrays.copyOfRange(data, 999, 1000), store.readRange("object", 999, 1));
    assertArrayEquals(new byte[0], store.readRange("object", 10, 0));
  }

  @Test
  void readRangePastTheEndThrowsEof() throws Exception {
    store.write("object", bytes(100, 3));
    assertThrows(EOFException.class, () -> store.readRange("object", 50, 51));
    assertThrows(EOFException.class, () -> store.readRange("object", 100, 1));
    assertThrows(EOFException.class, () -> store.readRange("object", 500, 10));
  }

  @Test
  void readRangeOfMissingObjectThrowsObjectNotFound() {
    assertThrows(ObjectNotFoundException.class, () -> store.readRange("missing", 0, 10));
    assertThrows(ObjectNotFoundException.class, () -> store.readRange("missing", 0, 0));
  }

  @Test
  void statReportsSizeAndModificationTimeOrEmpty() throws Exception {
    long before = System.currentTimeMillis();
    store.write("a/object", bytes(123, 4));
    ObjectInfo info = store.stat("a/object").orElseThrow();
    assertEquals("a/object", info.path());
    assertEquals(123, info.size());
    // Stores keep seconds at least; allow for that and a little clock skew.
    assertTrue(Math.abs(info.lastModifiedMillis() - before) < 60_000, info.toString());
    assertTrue(store.exists("a/object"));
    assertTrue(store.stat("a/missing").isEmpty());
    assertFalse(store.exists("a/missing"));
  }

  @Test
  void writeReplacesAnExistingObject() throws Exception {
    store.write("hint", "first".getBytes(UTF_8));
    store.write("hint", "second, longer".getBytes(UTF_8));
    assertEquals("second, longer", new String(store.read("hint"), UTF_8));
  }

  @Test
  void createdStreamIsInvisibleUntilClosed() throws Exception {
    // More than one part, so that on S3 a multipart upload is under way when we look.
    byte[] data = bytes(PART + 1000, 5);
    OutputStream out = store.create("data/file");
    out.write(data, 0, PART + 10);
    assertFalse(store.exists("data/file"));
    assertEquals(List.of(), store.list("data/"));
    out.write(data, PART + 10, data.length - PART - 10);
    out.close();
    assertArrayEquals(data, store.read("data/file"));
  }

  @Test
  void smallAndEmptyStreamsBecomeObjects() throws Exception {
    try (OutputStream out = store.create("small")) {
      out.write('x');
      out.write("yz".getBytes(UTF_8));
    }
    store.create("empty").close();
    assertEquals("xyz", new String(store.read("small"), UTF_8));
    assertEquals(0, store.stat("empty").orElseThrow().size());
  }

  @Test
  void largeObjectWrittenInOddChunksReadsBackWhole() throws Exception {
    byte[] data = bytes(4 * PART, 6);
    try (OutputStream out = store.create("big")) {
      int chunk = 777_777;
      for (int off = 0; off < data.length; off += chunk) {
        out.write(data, off, Math.min(chunk, data.length - off));
      }
    }
    assertEquals(data.length, store.stat("big").orElseThrow().size());
    assertArrayEquals(data, store.read("big"));
    assertArrayEquals(
        Arrays.copyOfRange(data, PART - 5, PART + 5), store.readRange("big", PART - 5, 10));
  }

  @Test
  void createIfAbsentCreatesOnceThenRefusesAndKeepsTheFirst() throws Exception {
    assertTrue(store.createIfAbsent("snapshot/snapshot-1", "first".getBytes(UTF_8)));
    assertFalse(store.createIfAbsent("snapshot/snapshot-1", "second".getBytes(UTF_8)));
    assertEquals("first", new String(store.read("snapshot/snapshot-1"), UTF_8));
  }

  @Test
  void createIfAbsentRefusesWhenWriteMadeTheObject() throws Exception {
    store.write("snapshot/LATEST", "1".getBytes(UTF_8));
    assertFalse(store.createIfAbsent("snapshot/LATEST", "2".getBytes(UTF_8)));
  }

  @Test
  void listFindsNestedObjectsUnderThePrefixInPathOrder() throws Exception {
    for (String path : List.of("b/5", "a/b/c/3", "ab/4", "a/1", "a/b/2")) {
      store.write(path, path.getBytes(UTF_8));
    }
    assertEquals(List.of("a/1", "a/b/2", "a/b/c/3"), paths(store.list("a/")));
    assertEquals(List.of("a/1", "a/b/2", "a/b/c/3", "ab/4"), paths(store.list("a")));
    assertEquals(List.of("a/b/2", "a/b/c/3"), paths(store.list("a/b")));
    assertEquals(List.of("a/1", "a/b/2", "a/b/c/3", "ab/4", "b/5"), paths(store.list("")));
    assertEquals(List.of(), store.list("c/"));
    assertEquals(7, store.list("a/b/c/").get(0).size());
  }

  private static List<String> paths(List<ObjectInfo> objects) {
    return objects.stream().map(ObjectInfo::path).toList();
  }

  @Test
  void deleteRemovesTheObjectAndIgnoresMissingOnes() throws Exception {
    store.write("x/object", bytes(10, 7));
    store.delete("x/object");
    assertFalse(store.exists("x/object"));
    store.delete("x/object");
    store.delete("never/was");
  }

  @Test
  void createIfAbsentHasExactlyOneWinnerPerPathAmongEightThreads() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 40; round++) {
        String path = "race/snapshot-" + round;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<Boolean>> outcomes = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          byte[] data = ("contender-" + t).getBytes(UTF_8);
          outcomes.add(
              pool.submit(
                  () -> {
                    start.await();
                    return store.createIfAbsent(path, data);
                  }));
        }
        List<Integer> winners = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          if (outcomes.get(t).get()) {
            winners.add(t);
          }
        }
        assertEquals(1, winners.size(), path + " won by " + winners);
        assertEquals("contender-" + winners.get(0), new String(store.read(path), UTF_8));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
