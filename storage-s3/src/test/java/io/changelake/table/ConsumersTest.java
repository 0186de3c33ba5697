package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.changelake.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.paimon.consumer.Consumer;
import org.apache.paimon.consumer.ConsumerManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Consumer files are Paimon's, byte for byte, and a read resumes where its consumer left off. */
class ConsumersTest {

  private static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path warehouse;

  @Test
  void consumerFilesAreByteForBytePaimonsAndReadBothWays() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      Consumers consumers = table.consumers();
      ConsumerManager paimon =
          new ConsumerManager(
              LocalFileIO.create(),
              new org.apache.paimon.fs.Path(warehouse.resolve(PATH.root()).toUri()));

      consumers.record("ours", 7);
      paimon.resetConsumer("theirs", new Consumer(7));
      assertArrayEquals(
          Files.readAllBytes(warehouse.resolve(PATH.consumerFolder() + "consumer-theirs")),
          Files.readAllBytes(warehouse.resolve(PATH.consumerFolder() + "consumer-ours")));
      assertEquals(7, paimon.consumer("ours").orElseThrow().nextSnapshot());
      assertEquals(OptionalLong.of(7), consumers.nextSnapshot("theirs"));
    }
  }

  @Test
  void consumersAreRecordedListedReplacedAndDeleted() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Consumers consumers = Table.create(store, PATH, Orders.schema(Map.of())).consumers();
      assertEquals(OptionalLong.empty(), consumers.nextSnapshot("job-a"));
      assertEquals(OptionalLong.empty(), consumers.minNextSnapshot());
      consumers.record("job-a", 3);
      consumers.record("job-b", 9);
      consumers.record("job-a", 5);
      assertEquals(Map.of("job-a", 5L, "job-b", 9L), consumers.list());
      assertEquals(OptionalLong.of(5), consumers.minNextSnapshot());
      consumers.delete("job-a");
      consumers.delete("never-there");
      assertEquals(Map.of("job-b", 9L), consumers.list());
      assertThrows(IllegalArgumentException.class, () -> consumers.record("a/b", 1));
    }
  }

  @Test
  void aReadResumesFromItsConsumerOrStartsAsToldWithoutOne() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      ChangelogScan scan = table.newChangelogScan();
      StartingPoint resume = StartingPoint.resume("job", StartingPoint.fromSnapshot(1));
      assertEquals(1, scan.start(resume).nextSnapshot());
      table.consumers().record("job", 6);
      assertEquals(6, scan.start(resume).nextSnapshot());
    }
  }
}
