package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The primitive hash-to-bucket map holds what a boxed map holds, zero and collisions included. */
class BucketOfHashTest {

  @Test
  void holdsWhatAHashMapHolds() {
    Random random = new Random(7);
    BucketOfHash map = new BucketOfHash();
    Map<Integer, Integer> reference = new HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      // A narrow range repeats hashes, so puts replace; zero is a hash like any other.
      int hash = i % 3 == 0 ? random.nextInt(5_000) - 2_500 : random.nextInt();
      int bucket = random.nextInt(Short.MAX_VALUE + 1);
      map.put(hash, bucket);
      reference.put(hash, bucket);
    }
    assertEquals(reference.size(), map.size());
    for (Map.Entry<Integer, Integer> e : reference.entrySet()) {
      assertEquals(e.getValue(), map.get(e.getKey()));
    }
    Map<Integer, Integer> iterated = new HashMap<>();
    map.forEach(iterated::put);
    assertEquals(reference, iterated);
    assertEquals(-1, map.get(Integer.MIN_VALUE + 12345));
  }

  @Test
  void refusesABucketAShortCannotHold() {
    BucketOfHash map = new BucketOfHash();
    assertThrows(IllegalArgumentException.class, () -> map.put(1, Short.MAX_VALUE + 1));
    assertThrows(IllegalArgumentException.class, () -> map.put(1, -1));
  }
}
