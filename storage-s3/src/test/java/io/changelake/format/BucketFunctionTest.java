package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.changelake.types.DataType;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.sink.FixedBucketRowKeyExtractor;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;

class BucketFunctionTest {

  private static final int KEYS = 10_000;
  private static final int[] BUCKET_COUNTS = {1, 3, 16, 128};

  @Test
  void bucketsBigintKeysAsPaimon() {
    assertBucketsAsPaimon(keyType(DataType.bigint()));
  }

  @Test
  void bucketsStringKeysAsPaimon() {
    assertBucketsAsPaimon(keyType(DataType.string()));
  }

  @Test
  void bucketsCompositeIntStringKeysAsPaimon() {
    assertBucketsAsPaimon(keyType(DataType.intType(), DataType.string()));
  }

  /**
   * For each bucket count, Paimon's own bucket assignment of a primary-key table whose primary (and
   * so bucket) key is the key type, against ours, for the same random keys.
   */
  private static void assertBucketsAsPaimon(RowType keyType) {
    RandomRows random = new RandomRows(keyType.size());
    List<Object[]> keys = new ArrayList<>();
    for (int n = 0; n < KEYS; n++) {
      keys.add(random.row(keyType));
    }
    PaimonRows paimonRows = new PaimonRows(keyType);
    for (int buckets : BUCKET_COUNTS) {
      FixedBucketRowKeyExtractor paimon = paimonExtractor(keyType, buckets);
      BucketFunction ours = new BucketFunction(keyType, buckets);
      for (Object[] key : keys) {
        paimon.setRecord(withValueColumn(paimonRows.toGenericRow(key)));
        String what = Arrays.deepToString(key) + " in " + buckets + " buckets";
        assertEquals(paimon.bucket(), ours.bucket(key), what);
      }
    }
  }

  /** Paimon's bucket assignment of a table of the key columns and one INT value column. */
  private static FixedBucketRowKeyExtractor paimonExtractor(RowType keyType, int buckets) {
    List<DataField> fields = new ArrayList<>(PaimonTypes.toPaimon(keyType).getFields());
    fields.add(new DataField(keyType.size(), "v", DataTypes.INT()));
    TableSchema schema =
        new TableSchema(
            0,
            fields,
            keyType.size(),
            List.of(),
            keyType.names(),
            Map.of("bucket", String.valueOf(buckets)),
            "");
    return new FixedBucketRowKeyExtractor(schema);
  }

  private static GenericRow withValueColumn(GenericRow key) {
    GenericRow row = new GenericRow(key.getFieldCount() + 1);
    for (int i = 0; i < key.getFieldCount(); i++) {
      row.setField(i, key.getField(i));
    }
    row.setField(key.getFieldCount(), 0);
    return row;
  }

  private static RowType keyType(DataType... types) {
    String[] names = new String[types.length];
    DataType[] notNull = new DataType[types.length];
    for (int i = 0; i < types.length; i++) {
      names[i] = "k" + i;
      notNull[i] = types[i].notNull();
    }
    return RowType.of(names, notNull);
  }

  /** The buckets Paimon's FixedBucketRowKeyExtractorTest pins for the INT row (5, 6, 7). */
  @Test
  void agreesWithTheBucketsPaimonPinsInItsOwnTests() {
    DataType i = DataType.intType();
    assertEquals(96, new BucketFunction(keyType(i), 100).bucket(new Object[] {5}));
    assertEquals(27, new BucketFunction(keyType(i, i), 100).bucket(new Object[] {5, 6}));
    assertEquals(40, new BucketFunction(keyType(i, i, i), 100).bucket(new Object[] {5, 6, 7}));
  }

  @Test
  void rejectsABucketCountBelowOne() {
    RowType keyType = keyType(DataType.bigint());
    assertThrows(IllegalArgumentException.class, () -> new BucketFunction(keyType, -1));
  }
}
