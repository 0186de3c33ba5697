package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.KeyValueFileReader;
import io.changelake.schema.TableSchema;
import io.changelake.store.FaultInjectingObjectStore;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written as records come, rolled at the target size, on a local store. */
class RollingFileWriterTest {

  private static final TableSchema SCHEMA =
      TableSchema.create(
          RowType.of(
              new String[] {"id", "amount"},
              new DataType[] {DataType.bigint().notNull(), DataType.bigint()}),
          List.of(),
          List.of("id"),
          Map.of(),
          null);

  @TempDir Path dir;

  @Test
  void aFileIsRolledEachTimeOneReachesTheTargetSizeAndEveryRecordIsWrittenInOrder()
      throws IOException {
    try (ObjectStore store = new LocalObjectStore(dir)) {
      BucketFiles files = new BucketFiles(store, "rolling-0/", SCHEMA);
      List<DataFileMeta> written;
      // A target of one byte: every size check (each 1024 rows) rolls the file.
      try (RollingFileWriter out = new RollingFileWriter(files, 2, false, 1, null)) {
        for (long id = 0; id < 2500; id++) {
          out.write(Bucket.row(id, id, RowKind.INSERT, id * 10));
        }
        written = out.finish();
      }

      assertEquals(
          List.of(1024L, 1024L, 452L), written.stream().map(DataFileMeta::rowCount).toList());
      assertTrue(written.stream().allMatch(f -> f.level() == 2));
      assertTrue(written.stream().allMatch(f -> f.fileSource() == FileSource.COMPACT));
      assertTrue(written.stream().allMatch(f -> f.fileName().startsWith("data-")));
      List<Long> ids = new ArrayList<>();
      for (DataFileMeta f : written) {
        try (KeyValueFileReader reader = files.open(f)) {
          while (reader.hasNext()) {
            KeyValue kv = reader.next();
            ids.add((Long) kv.key()[0]);
            assertEquals(kv.sequenceNumber() * 10, kv.value()[1]);
          }
        }
      }
      assertEquals(2500, ids.size());
      for (int i = 0; i < ids.size(); i++) {
        assertEquals(i, ids.get(i));
      }
    }
  }

  @Test
  void changelogAndLevelZeroFilesComeFromAnAppendAndNothingWrittenIsNoFile() throws IOException {
    try (ObjectStore store = new LocalObjectStore(dir)) {
      BucketFiles files = new BucketFiles(store, "rolling-0/", SCHEMA);
      try (RollingFileWriter changelog = new RollingFileWriter(files, 3, true, 1 << 20, null);
          RollingFileWriter flush = new RollingFileWriter(files, 0, false, 1 << 20, null);
          RollingFileWriter nothing = new RollingFileWriter(files, 1, false, 1 << 20, null)) {
        changelog.write(Bucket.row(1, 1, RowKind.DELETE, 5));
        flush.write(Bucket.row(1, 2, RowKind.INSERT, 6));

        DataFileMeta changelogFile = changelog.finish().get(0);
        DataFileMeta flushed = flush.finish().get(0);

        assertTrue(changelogFile.fileName().startsWith("changelog-"));
        assertEquals(FileSource.APPEND, changelogFile.fileSource());
        assertEquals(1L, changelogFile.deleteRowCount());
        assertEquals(FileSource.APPEND, flushed.fileSource());
        assertEquals(0, flushed.level());
        assertEquals(List.of(), nothing.finish());
      }
    }
  }

  /**
   * A changelog writes a version under the kind it is emitted as (the -U of a stored +I); a data
   * file stores each record under its own kind, and refuses another before writing anything.
   */
  @Test
  void aChangelogWritesAVersionUnderItsEmittedKindADataFileUnderItsOwn() throws IOException {
    try (ObjectStore store = new LocalObjectStore(dir)) {
      BucketFiles files = new BucketFiles(store, "rolling-0/", SCHEMA);
      try (RollingFileWriter changelog = new RollingFileWriter(files, 3, true, 1 << 20, null);
          RollingFileWriter data = new RollingFileWriter(files, 1, false, 1 << 20, null)) {
        changelog.write(Bucket.row(1, 1, RowKind.INSERT, 5), RowKind.UPDATE_BEFORE);
        changelog.write(Bucket.row(1, 2, RowKind.INSERT, 6), RowKind.UPDATE_AFTER);
        IllegalArgumentException refused =
            assertThrows(
                IllegalArgumentException.class,
                () -> data.write(Bucket.row(1, 2, RowKind.INSERT, 6), RowKind.DELETE));
        data.write(Bucket.row(1, 2, RowKind.INSERT, 6), RowKind.INSERT);

        DataFileMeta changelogFile = changelog.finish().get(0);
        assertEquals(1L, changelogFile.deleteRowCount());
        List<String> kinds = new ArrayList<>();
        try (KeyValueFileReader reader = files.open(changelogFile)) {
          while (reader.hasNext()) {
            kinds.add(reader.next().kind().shortString());
          }
        }
        assertEquals(List.of("-U", "+U"), kinds);
        assertTrue(refused.getMessage().contains("its own kind"), refused.getMessage());
        assertEquals(1L, data.finish().get(0).rowCount());
      }
    }
  }

  @Test
  void aFileThatCannotBeWrittenFailsTheOutputAndEveryLaterCall() throws IOException {
    try (ObjectStore store =
        new FaultInjectingObjectStore(new LocalObjectStore(dir), p -> p.contains("data-"))) {
      BucketFiles files = new BucketFiles(store, "rolling-7/", SCHEMA);
      RollingFileWriter out = new RollingFileWriter(files, 1, false, 1 << 20, null);

      IOException e =
          assertThrows(
              IOException.class,
              () -> {
                for (long id = 0; id < 10_000; id++) {
                  out.write(Bucket.row(id, id, RowKind.INSERT, id));
                }
                out.finish();
              });
      IOException later = assertThrows(IOException.class, out::finish);
      out.close();

      assertTrue(e.getMessage().contains("rolling-7/"), e.getMessage());
      assertTrue(e.getMessage().contains("simulated crash"), e.getMessage());
      assertTrue(later.getMessage().contains("failed earlier"), later.getMessage());
    }
  }

  /** Neither the open file nor the four rolled before it (a target of one byte) are left. */
  @Test
  void closeWithoutFinishAbandonsTheOutputAndLeavesNoFile() throws IOException {
    try (ObjectStore store = new LocalObjectStore(dir)) {
      BucketFiles files = new BucketFiles(store, "rolling-0/", SCHEMA);
      RollingFileWriter out = new RollingFileWriter(files, 1, false, 1, null);
      for (long id = 0; id < 5000; id++) {
        out.write(Bucket.row(id, id, RowKind.INSERT, id));
      }

      out.close();

      assertEquals(List.of(), store.list("rolling-0/"));
    }
  }
}
