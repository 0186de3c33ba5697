package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableWriterTest {

  @TempDir Path warehouse;
  @TempDir Path localDir;

  /**
   * Every bucket writer's close fails (each spill file has become a folder that is not empty, so it
   * cannot be deleted as a file): close still closes them all and removes the scratch space, and
   * throws the first failure with the others suppressed, none dropped.
   */
  @Test
  void closeClosesEveryBucketAndThrowsTheFirstFailureWithTheOthersSuppressed() throws Exception {
    try (ObjectStore disk = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              disk,
              new TablePath("db", "orders"),
              Orders.schema(
                  Map.of(
                      "bucket", "3",
                      // A budget this small spills the buffers as the rows arrive.
                      "write-buffer-size", "7 kb",
                      "local-dir", localDir.toString())));
      TableWriter writer = table.newWriter();
      for (long key = 0; key < 600; key++) {
        writer.write(RowKind.INSERT, Orders.row(key, 1L, key));
      }
      List<Path> spills = spillFiles();
      long buckets = spills.stream().map(p -> p.getParent().getParent()).distinct().count();
      assertEquals(3, buckets, "every bucket spilled: " + spills);
      for (Path spill : spills) {
        Files.delete(spill);
        Files.createDirectories(spill.resolve("in-the-way"));
      }

      IOException thrown = assertThrows(IOException.class, writer::close);

      // A bucket writer stops at its first spill that cannot be deleted: one failure a bucket.
      assertEquals(2, thrown.getSuppressed().length, "every bucket's failure is reported");
      try (Stream<Path> left = Files.list(localDir)) {
        assertFalse(left.findAny().isPresent(), "the scratch folder is removed");
      }
      assertTrue(
          spills.stream().anyMatch(p -> thrown.getMessage().contains(p.getFileName().toString())),
          thrown.getMessage());
    }
  }

  private List<Path> spillFiles() throws IOException {
    try (Stream<Path> all = Files.walk(localDir)) {
      return all.filter(Files::isRegularFile)
          .filter(p -> p.getParent().getFileName().toString().equals("spill"))
          .toList();
    }
  }
}
