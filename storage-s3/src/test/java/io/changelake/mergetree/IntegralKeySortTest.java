package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IntegralKeySortTest {

  @Test
  void sortsByKeyAndKeepsArrivalOrderAmongEqualKeys() {
    Random random = new Random(7);
    for (int round = 0; round < 50; round++) {
      List<KeyValue> records = new ArrayList<>();
      int n = random.nextInt(2_000);
      for (int i = 0; i < n; i++) {
        long key = random.nextInt(100) - 50 + (random.nextBoolean() ? Long.MIN_VALUE / 2 : 0);
        records.add(new KeyValue(new Object[] {key}, i, RowKind.INSERT, new Object[] {key}));
      }
      List<KeyValue> expected = new ArrayList<>(records);
      expected.sort(Comparator.comparingLong(kv -> (Long) kv.key()[0]));
      IntegralKeySort.sort(records);
      assertEquals(
          expected.stream().map(KeyValue::sequenceNumber).toList(),
          records.stream().map(KeyValue::sequenceNumber).toList());
    }
  }

  @Test
  void sortsTheVersionsOfEachKeyByTheVersionOrderAsAStableSortByKeyThenVersionDoes() {
    Random random = new Random(11);
    Comparator<KeyValue> byField = Comparator.comparingLong(kv -> (Long) kv.value()[1]);
    for (int round = 0; round < 50; round++) {
      List<KeyValue> records = new ArrayList<>();
      int n = random.nextInt(2_000);
      for (int i = 0; i < n; i++) {
        // Key 0 is hot: more versions than insertion sorts, the others a few each.
        long key = random.nextInt(4) == 0 ? 0 : random.nextInt(300) - 150;
        long field = random.nextInt(5);
        records.add(new KeyValue(new Object[] {key}, i, RowKind.INSERT, new Object[] {key, field}));
      }
      List<KeyValue> expected = new ArrayList<>(records);
      expected.sort(
          Comparator.<KeyValue>comparingLong(kv -> (Long) kv.key()[0]).thenComparing(byField));
      IntegralKeySort.sort(records, byField);
      assertEquals(
          expected.stream().map(KeyValue::sequenceNumber).toList(),
          records.stream().map(KeyValue::sequenceNumber).toList());
    }
  }
}
