package io.changelake.mergetree;

import static io.changelake.mergetree.Bucket.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingIncrementTest {

  private final DataFileMeta published0 = file("published-0", 0, 10);
  private final DataFileMeta published1 = file("published-1", 1, 10);
  private final DataFileMeta flushed = file("flushed", 0, 10);
  private final DataFileMeta changelog = file("changelog", 0, 10);

  @Test
  void aFlushAndACompactionOfPublishedFilesAreRecordedAsTheyAre() {
    PendingIncrement increment = new PendingIncrement(false);
    DataFileMeta merged = file("merged", 1, 20);
    DataFileMeta compactionChangelog = file("compaction-changelog", 1, 5);

    increment.flushed(List.of(flushed), List.of(changelog));
    List<DataFileMeta> unreferenced =
        increment.compacted(List.of(published0, published1), List.of(merged), false);
    increment.compactionChangelog(List.of(compactionChangelog));

    assertEquals(List.of(), unreferenced);
    assertEquals(
        new BucketIncrement(
            List.of(flushed),
            List.of(changelog),
            List.of(published0, published1),
            List.of(merged),
            List.of(compactionChangelog)),
        increment.drain());
  }

  @Test
  void drainStartsTheNextIncrementEmpty() {
    PendingIncrement increment = new PendingIncrement(false);
    increment.flushed(List.of(flushed), List.of());
    increment.drain();
    assertTrue(increment.drain().isEmpty());
  }

  @Test
  void aFileWrittenAndRewrittenWithinOneCommitIsLeftOutAndHandedBackForDeletion() {
    PendingIncrement increment = new PendingIncrement(false);
    DataFileMeta first = file("first", 1, 10);
    DataFileMeta second = file("second", 2, 10);

    increment.compacted(List.of(published0), List.of(first), false);
    List<DataFileMeta> unreferenced = increment.compacted(List.of(first), List.of(second), false);

    assertEquals(List.of(first), unreferenced);
    assertEquals(
        new BucketIncrement(List.of(), List.of(), List.of(published0), List.of(second), List.of()),
        increment.drain());
  }

  @Test
  void aFileMovedTwiceWithinOneCommitIsReplacedOnceAtItsPublishedLevel() {
    PendingIncrement increment = new PendingIncrement(false);

    increment.compacted(List.of(published1), List.of(published1.upgrade(2)), true);
    List<DataFileMeta> unreferenced =
        increment.compacted(List.of(published1.upgrade(2)), List.of(published1.upgrade(4)), true);

    assertEquals(List.of(), unreferenced);
    assertEquals(
        new BucketIncrement(
            List.of(), List.of(), List.of(published1), List.of(published1.upgrade(4)), List.of()),
        increment.drain());
  }

  @Test
  void aFileWrittenThenMovedWithinOneCommitIsDeletedOnlyOnceRewritten() {
    PendingIncrement increment = new PendingIncrement(false);
    DataFileMeta written = file("written", 1, 10);

    increment.compacted(List.of(published0), List.of(written), false);
    List<DataFileMeta> moved =
        increment.compacted(List.of(written), List.of(written.upgrade(3)), true);
    List<DataFileMeta> rewritten =
        increment.compacted(List.of(written.upgrade(3)), List.of(file("last", 4, 10)), false);

    assertEquals(List.of(), moved);
    assertEquals(List.of(written.upgrade(3)), rewritten);
  }

  @Test
  void aFlushLiftedByItsOwnCommitStaysInTheIncrementUnlessFlushesGoUnpublished() {
    DataFileMeta lifted = file("lifted", 1, 10);

    PendingIncrement published = new PendingIncrement(false);
    published.flushed(List.of(flushed), List.of());
    List<DataFileMeta> kept = published.compacted(List.of(flushed), List.of(lifted), false);
    assertEquals(List.of(), kept);
    assertEquals(
        new BucketIncrement(
            List.of(flushed), List.of(), List.of(flushed), List.of(lifted), List.of()),
        published.drain());

    PendingIncrement unpublished = new PendingIncrement(true);
    unpublished.flushed(List.of(flushed), List.of());
    List<DataFileMeta> dropped = unpublished.compacted(List.of(flushed), List.of(lifted), false);
    assertEquals(List.of(flushed), dropped);
    assertEquals(
        new BucketIncrement(List.of(), List.of(), List.of(), List.of(lifted), List.of()),
        unpublished.drain());
  }
}
