package io.changelake.mergetree.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BloomFilterTest {

  @Test
  void addedHashesAreAlwaysFoundAndOthersRarely() throws IOException {
    int keys = 200_000;
    BloomFilter filter = BloomFilter.forKeys(keys, 0.01);
    SplittableRandom random = new SplittableRandom(11);
    int[] added = new int[keys];
    for (int i = 0; i < keys; i++) {
      added[i] = random.nextInt();
      filter.add(added[i]);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    filter.writeTo(new DataOutputStream(bytes));
    BloomFilter read = BloomFilter.readFrom(ByteBuffer.wrap(bytes.toByteArray()));
    for (int hash : added) {
      assertTrue(read.mightContain(hash));
    }
    int falsePositives = 0;
    int probes = 1_000_000;
    for (int i = 0; i < probes; i++) {
      if (read.mightContain(random.nextInt())) {
        falsePositives++;
      }
    }
    double rate = (double) falsePositives / probes;
    assertTrue(rate < 0.015, "false-positive rate " + rate);
    assertEquals(filter.retainedBytes(), read.retainedBytes());
    assertTrue(filter.retainedBytes() < 1.3 * keys, "bytes " + filter.retainedBytes());
  }
}
