package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user can get wrong fails with a message naming it: a missing table (or a wait for it when
 * asked), an unreadable file, a none read of a merging engine, normalize where it is not needed.
 * Never a silent skip.
 */
class BadInputTest {

  @TempDir Path warehouse;

  private ReadChangelog changelog(String table) {
    return ChangelakeIO.readChangelog().from(warehouse.toString(), "shop", table);
  }

  @Test
  void aMissingTableIsAnErrorNamingIt() {
    Pipeline pipeline = Pipeline.create();
    Exception e = assertThrows(Exception.class, () -> pipeline.apply(changelog("nope")));
    assertTrue(Failures.messages(e).contains("no table shop.nope"), Failures.messages(e));
    Exception batch =
        assertThrows(
            Exception.class,
            () -> pipeline.apply(ChangelakeIO.read().from(warehouse.toString(), "shop", "nope")));
    assertTrue(Failures.messages(batch).contains("no table shop.nope"), Failures.messages(batch));
  }

  @Test
  void aReadAskedToWaitWaitsForTheTable() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Thread creator =
          new Thread(
              () -> {
                try {
                  Thread.sleep(700);
                  SeedTables.create(store, Map.of("changelog-producer", "lookup"));
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      creator.start();
      Pipeline pipeline = Pipeline.create();
      CollectedRows<KV<Long, Long>> sums = new CollectedRows<>();
      sums.collect(
          SeedTables.sumPerStore(
              pipeline.apply(
                  changelog("orders")
                      .withWaitForTable()
                      .withPollInterval(Duration.ofMillis(100))
                      .betweenSnapshots(0, 2))));
      creator.join();
      SeedTables.writeSeedStory(Table.open(store, SeedTables.ORDERS), false);
      pipeline.run().waitUntilFinish();
      assertEquals(List.of(KV.of(10L, 80L)), sums.elements());
    }
  }

  @Test
  void anUnreadableFileIsAnErrorNamingIt() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SeedTables.create(store, Map.of("changelog-producer", "input"));
      SeedTables.writeSeedStory(table, true);
      String removed;
      try (Stream<Path> files = Files.walk(warehouse.resolve(SeedTables.ORDERS.root()))) {
        Path changelog =
            files
                .filter(p -> p.getFileName().toString().startsWith("changelog-"))
                .findFirst()
                .orElseThrow();
        removed = changelog.getFileName().toString();
        Files.delete(changelog);
      }
      Pipeline pipeline = Pipeline.create();
      pipeline.apply(changelog("orders").betweenSnapshots(0, 2));
      Exception e = assertThrows(Exception.class, () -> pipeline.run().waitUntilFinish());
      assertTrue(Failures.messages(e).contains(removed), Failures.messages(e));
    }
  }

  @Test
  void aNoneReadOfAPartialUpdateTableIsRefusedUnlessRawRowsAreAsked() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      SeedTables.create(store, Map.of("merge-engine", "partial-update"));
      Pipeline pipeline = Pipeline.create();
      Exception e = assertThrows(Exception.class, () -> pipeline.apply(changelog("orders")));
      assertTrue(
          Failures.messages(e).contains("'changelog-producer' = 'lookup'"), Failures.messages(e));
      pipeline.apply(changelog("orders").withRawRows());
    }
  }

  @Test
  void normalizeIsRefusedWhereTheProducerAlreadyEmitsRetractions() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      SeedTables.create(store, Map.of("changelog-producer", "lookup"));
      Exception e =
          assertThrows(
              Exception.class, () -> Pipeline.create().apply(changelog("orders").withNormalize()));
      assertTrue(Failures.messages(e).contains("drop withNormalize()"), Failures.messages(e));
    }
  }
}
