package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.changelake.store.LocalObjectStore;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of a compacted changelog file, as Paimon's Flink sink with {@code precommit-compact}
 * names them, are read from the object that holds them. {@code FlinkInteropIT} reads what a real
 * Flink job writes so.
 */
class CompactedChangelogNameTest {

  private static final RowType ORDERS =
      RowType.of(
          new String[] {"order_id", "amount"},
          new DataType[] {DataType.bigint().notNull(), DataType.bigint()});
  private static final RowType ORDER_KEY = ORDERS.project(new int[] {0});

  @TempDir Path warehouse;

  @Test
  void theFirstPartIsTheObjectItselfAndALaterPartARangeOfItInAnotherBucketsFolder() {
    String first = "t/dt=d1/bucket-3/compacted-changelog-8e0a$3-1577.cc-parquet";
    String later = "t/dt=d1/bucket-0/compacted-changelog-8e0a$3-1577-1577-902.cc-parquet";

    assertEquals(
        Optional.of(new CompactedChangelogName(first, 0, 1577)), CompactedChangelogName.of(first));
    assertEquals(
        Optional.of(new CompactedChangelogName(first, 1577, 902)),
        CompactedChangelogName.of(later));
    assertEquals(
        Optional.empty(),
        CompactedChangelogName.of("t/bucket-0/changelog-25b05ab0-6f90-4865-a984-8d96-1.parquet"));
  }

  @Test
  void aCompactedChangelogNameThatDoesNotSayWhereItsBytesAreIsRefused() {
    for (String name :
        List.of(
            "t/bucket-0/compacted-changelog-8e0a.cc-parquet",
            "t/bucket-0/compacted-changelog-8e0a$3.cc-parquet",
            "t/bucket-0/compacted-changelog-8e0a$3-x.cc-parquet",
            "t/bucket-0/compacted-changelog-8e0a$3-10-0.cc-parquet")) {
      assertThrows(IllegalArgumentException.class, () -> CompactedChangelogName.of(name), name);
    }
  }

  @Test
  void eachBucketsPartReadsItsOwnKeyValuesFromTheOneObject() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      List<KeyValue> bucket3 =
          List.of(
              new KeyValue(new Object[] {1L}, 7, RowKind.UPDATE_BEFORE, new Object[] {1L, 100L}),
              new KeyValue(new Object[] {1L}, 7, RowKind.UPDATE_AFTER, new Object[] {1L, 80L}));
      List<KeyValue> bucket0 =
          List.of(new KeyValue(new Object[] {4L}, 2, RowKind.INSERT, new Object[] {4L, 5L}));
      byte[] first = parquet(store, "a.parquet", bucket3);
      byte[] second = parquet(store, "b.parquet", bucket0);
      ByteArrayOutputStream object = new ByteArrayOutputStream();
      object.write(first);
      object.write(second);
      String name = "compacted-changelog-8e0a$3-" + first.length;
      store.write("t/bucket-3/" + name + ".cc-parquet", object.toByteArray());

      assertEquals(
          KeyValueFiles.describe(bucket3),
          KeyValueFiles.describe(
              KeyValueFiles.read(
                  store, "t/bucket-3/" + name + ".cc-parquet", ORDER_KEY, ORDERS, null)));
      String part = "t/bucket-0/" + name + "-" + first.length + "-" + second.length + ".cc-parquet";
      assertEquals(
          KeyValueFiles.describe(bucket0),
          KeyValueFiles.describe(KeyValueFiles.read(store, part, ORDER_KEY, ORDERS, null)));
    }
  }

  private static byte[] parquet(LocalObjectStore store, String path, List<KeyValue> rows)
      throws Exception {
    KeyValueFiles.write(store, path, ORDER_KEY, ORDERS, rows, ParquetFileOptions.DEFAULTS);
    return store.read(path);
  }
}
