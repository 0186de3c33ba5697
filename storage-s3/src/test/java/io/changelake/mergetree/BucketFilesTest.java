package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bucket's files, described for the manifest by several threads at once. */
class BucketFilesTest {

  private static final RowType ROW =
      RowType.of(
          new String[] {"id", "amount", "note"},
          new DataType[] {DataType.bigint().notNull(), DataType.bigint(), DataType.string()});

  private static final TableSchema SCHEMA =
      TableSchema.create(ROW, List.of(), List.of("id"), Map.of(), null);

  private static final int THREADS = 4;
  private static final int FILES_PER_THREAD = 300;
  private static final int ROWS_PER_FILE = 20;

  @TempDir Path dir;

  /**
   * A background compaction finishes files while the writer's thread flushes, and the description
   * of a file encodes its key range and statistics through codecs the bucket shares. Four threads
   * finish 300 small files each at once; every file's recorded smallest and largest key and its
   * value statistics must be its own, with notes of different lengths so that one file's bytes
   * written over another's would show.
   */
  @Test
  void filesFinishedOnFourThreadsAtOnceEachRecordTheirOwnKeysAndStatistics() throws Exception {
    try (ObjectStore store = new LocalObjectStore(dir)) {
      BucketFiles files = new BucketFiles(store, "bucket-0/", SCHEMA);
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService threads = Executors.newFixedThreadPool(THREADS);
      try {
        List<Future<List<DataFileMeta>>> written = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          written.add(
              threads.submit(
                  () -> {
                    start.await();
                    List<DataFileMeta> metas = new ArrayList<>();
                    for (int f = 0; f < FILES_PER_THREAD; f++) {
                      metas.add(writeFile(files, thread, f));
                    }
                    return metas;
                  }));
        }
        start.countDown();
        BinaryRowCodec keys = new BinaryRowCodec(SCHEMA.keyType());
        BinaryRowCodec values = new BinaryRowCodec(ROW);
        for (int t = 0; t < THREADS; t++) {
          List<DataFileMeta> metas = written.get(t).get();
          for (int f = 0; f < FILES_PER_THREAD; f++) {
            DataFileMeta meta = metas.get(f);
            long first = firstId(t, f);
            long last = first + ROWS_PER_FILE - 1;
            String what = "thread " + t + ", file " + f;
            assertArrayEquals(new Object[] {first}, keys.decode(meta.minKey().bytes()), what);
            assertArrayEquals(new Object[] {last}, keys.decode(meta.maxKey().bytes()), what);
            assertArrayEquals(
                new Object[] {first, first * 10, note(t, f, 0)},
                values.decode(meta.valueStats().minValues().bytes()),
                what);
            assertArrayEquals(
                new Object[] {last, last * 10, note(t, f, ROWS_PER_FILE - 1)},
                values.decode(meta.valueStats().maxValues().bytes()),
                what);
            assertEquals(ROWS_PER_FILE, meta.rowCount(), what);
          }
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }

  private static DataFileMeta writeFile(BucketFiles files, int thread, int file) throws Exception {
    KeyValueFileWriter writer = files.newDataFile();
    long first = firstId(thread, file);
    for (int i = 0; i < ROWS_PER_FILE; i++) {
      long id = first + i;
      writer.write(
          new KeyValue(
              new Object[] {id},
              id,
              RowKind.INSERT,
              new Object[] {id, id * 10, note(thread, file, i)}));
    }
    return files.finish(writer, 1, FileSource.COMPACT);
  }

  private static long firstId(int thread, int file) {
    return ((long) thread * FILES_PER_THREAD + file) * ROWS_PER_FILE;
  }

  /**
   * Notes ascending within a file, of a length that differs from thread to thread and file to file,
   * at most 15 characters: statistics keep the first 16 of a string (Paimon's default stats mode).
   */
  private static String note(int thread, int file, int row) {
    return "t" + thread + "-" + "x".repeat((thread * 7 + file) % 11) + "-" + (char) ('a' + row);
  }
}
