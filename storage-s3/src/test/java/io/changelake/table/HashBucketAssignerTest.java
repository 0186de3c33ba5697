package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.HashIndexFile;
import io.changelake.format.IndexManifestEntry;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.BucketAssigner.RowBucket;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Buckets assigned apart from their writers, by n {@link HashBucketAssigner}s, come out as one
 * {@link TableWriter} assigning them itself gives them, index files included; an assigner that
 * restarts before the commit keeps its keys' buckets only from the assignments it is given back.
 */
class HashBucketAssignerTest {

  @TempDir Path warehouse;

  private static final Map<String, String> OPTIONS =
      Map.of(
          "bucket", "-1",
          "dynamic-bucket.target-row-num", "7",
          "dynamic-bucket.initial-buckets", "3");

  /** day INT (partition), id BIGINT, v STRING; primary key (day, id). */
  private static TableSchema schema() {
    RowType rowType =
        new RowType(
            List.of(
                new DataField(0, "day", DataType.intType().notNull()),
                new DataField(1, "id", DataType.bigint().notNull()),
                new DataField(2, "v", DataType.string())));
    return TableSchema.create(rowType, List.of("day"), List.of("day", "id"), OPTIONS, null);
  }

  private static List<Object[]> rows(long seed, int count) {
    Random random = new Random(seed);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(new Object[] {20260101 + random.nextInt(2), (long) random.nextInt(60), "v" + i});
    }
    return rows;
  }

  /** Each (partition, bucket) of the latest snapshot's index, with its sorted key hashes. */
  private static Map<String, String> index(Table table) throws Exception {
    Map<String, String> index = new TreeMap<>();
    HashIndexFile files = new HashIndexFile(table.store(), table.path().indexFolder());
    Snapshot latest = table.snapshots().latest().orElseThrow();
    for (IndexManifestEntry e : table.newScan().indexFiles(latest)) {
      int[] hashes = files.read(e.file());
      Arrays.sort(hashes);
      String bucket = table.partitionPath(e.partition()) + e.bucket();
      assertEquals(null, index.put(bucket, Arrays.toString(hashes)), "one file per bucket");
    }
    return index;
  }

  private static void commit(Table table, TableWriter writer, long identifier) throws Exception {
    table.newCommit("test").commit(identifier, writer.prepareCommit(identifier));
  }

  @Test
  void splitAssignersAndGivenBucketsWriteWhatOneSelfAssigningWriterWrites() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table whole = Table.create(store, new TablePath("db", "whole"), schema());
      Table split = Table.create(store, new TablePath("db", "split"), schema());
      for (long batch = 1; batch <= 3; batch++) {
        List<Object[]> rows = rows(batch, 120);
        try (TableWriter writer = whole.newWriter()) {
          for (Object[] row : rows) {
            writer.write(RowKind.INSERT, row);
          }
          commit(whole, writer, batch);
        }
        List<HashBucketAssigner> assigners = new ArrayList<>();
        for (int a = 0; a < 3; a++) {
          assigners.add(split.newHashBucketAssigner(a));
        }
        try (TableWriter writer = split.newWriter()) {
          for (Object[] row : rows) {
            RowBucket bucket = assigners.get(assigners.get(0).assignerOf(row)).assign(row);
            writer.write(RowKind.INSERT, row, bucket.bucket());
          }
          commit(split, writer, batch);
        }
      }
      assertEquals(index(whole), index(split));
      assertEquals(
          whole.newRead().readAll().stream().map(Arrays::toString).sorted().toList(),
          split.newRead().readAll().stream().map(Arrays::toString).sorted().toList());
    }
  }

  @Test
  void aRestartedAssignerKeepsUncommittedKeysInTheirBucketsOnlyWhenGivenThemBack()
      throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, new TablePath("db", "t"), schema());
      HashBucketAssigner first = table.newHashBucketAssigner(0);
      Map<String, Integer> buckets = new HashMap<>();
      List<Object[]> own = new ArrayList<>();
      for (Object[] row : rows(5, 200)) {
        if (first.assignerOf(row) == 0) {
          buckets.put(row[0] + "/" + row[1], first.assign(row).bucket());
          own.add(row);
        }
      }
      List<HashBucketAssigner.Assignment> pending = first.takeNewAssignments();
      assertEquals(buckets.size(), pending.size());
      assertEquals(pending, first.uncommitted(pending));

      HashBucketAssigner restarted = table.newHashBucketAssigner(0);
      restarted.restore(pending);
      Object[] newcomer = null;
      for (long id = 1000; newcomer == null; id++) {
        Object[] row = {20260101, id, "new"};
        if (restarted.assignerOf(row) == 0) {
          newcomer = row;
        }
      }
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : own) {
          int bucket = restarted.assign(row).bucket();
          assertEquals(buckets.get(row[0] + "/" + row[1]), bucket, "key " + row[1]);
          writer.write(RowKind.INSERT, row, bucket);
        }
        assertEquals(List.of(), restarted.takeNewAssignments(), "no key got a second bucket");
        commit(table, writer, 1);
      }
      assertEquals(List.of(), first.uncommitted(pending), "the commit holds every assignment");
      int newBucket = first.assign(newcomer).bucket();
      assertEquals(newBucket, table.newHashBucketAssigner(0).assign(newcomer).bucket());
      HashBucketAssigner fresh = table.newHashBucketAssigner(0);
      for (Object[] row : own) {
        assertEquals(buckets.get(row[0] + "/" + row[1]), fresh.assign(row).bucket());
      }
      assertEquals(List.of(), fresh.takeNewAssignments(), "the committed index holds every key");
    }
  }

  /**
   * A table written under one assigner count and then under another: each assigner finds its keys
   * in buckets another count opened (it reads every bucket's index file), so none gets a second.
   */
  @Test
  void assignersFindTheirKeysInBucketsOpenedUnderAnotherAssignerCount() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, new TablePath("db", "t"), schema());
      List<Object[]> rows = rows(9, 150);
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : rows) {
          writer.write(RowKind.INSERT, row);
        }
        commit(table, writer, 1);
      }
      Map<String, String> before = index(table);
      Table fewer =
          table.alter(
              List.of(
                  new io.changelake.schema.SchemaChange.SetOption(
                      "dynamic-bucket.initial-buckets", "2")));
      List<HashBucketAssigner> assigners =
          List.of(fewer.newHashBucketAssigner(0), fewer.newHashBucketAssigner(1));
      try (TableWriter writer = fewer.newWriter()) {
        for (Object[] row : rows) {
          HashBucketAssigner assigner = assigners.get(assigners.get(0).assignerOf(row));
          writer.write(RowKind.INSERT, row, assigner.assign(row).bucket());
        }
        for (HashBucketAssigner assigner : assigners) {
          assertEquals(List.of(), assigner.takeNewAssignments(), "every key was known");
        }
        commit(fewer, writer, 2);
      }
      assertEquals(before.keySet(), index(fewer).keySet(), "no bucket opened");
    }
  }

  @Test
  void anAssignerRefusesAnotherAssignersKeyAndAWriterAKeyMovedToAnotherBucket() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, new TablePath("db", "t"), schema());
      HashBucketAssigner zero = table.newHashBucketAssigner(0);
      Object[] other = null;
      for (long id = 0; other == null; id++) {
        Object[] row = {20260101, id, "x"};
        if (zero.assignerOf(row) != 0) {
          other = row;
        }
      }
      Object[] foreign = other;
      assertThrows(IllegalStateException.class, () -> zero.assign(foreign));
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, foreign, 1);
        IllegalStateException moved =
            assertThrows(
                IllegalStateException.class, () -> writer.write(RowKind.INSERT, foreign, 4));
        assertTrue(moved.getMessage().contains("two assigners"), moved.getMessage());
      }
    }
  }
}
