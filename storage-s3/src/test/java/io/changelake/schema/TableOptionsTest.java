package io.changelake.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The accessors read through the declarations: stored values, defaults, derived defaults. */
class TableOptionsTest {

  private static final TableOptions UNSET = TableOptions.of(Map.of());

  @Test
  void anUnsetTableHasTheDeclaredDefaults() {
    // Unset in a stored table is Paimon's default: dynamic bucket mode.
    assertEquals(-1, UNSET.bucket());
    assertTrue(UNSET.dynamicBucket());
    assertEquals(2_000_000L, UNSET.dynamicBucketTargetRowNum());
    assertEquals(1, UNSET.dynamicBucketInitialBuckets());
    assertEquals(-1, UNSET.dynamicBucketMaxBuckets());
    assertEquals(List.of(), UNSET.bucketKey());
    assertEquals(ChangelogProducer.NONE, UNSET.changelogProducer());
    assertEquals(MergeEngine.DEDUPLICATE, UNSET.mergeEngine());
    assertEquals("zstd", UNSET.fileCompression());
    assertEquals(1, UNSET.zstdLevel());
    assertEquals(128L << 20, UNSET.targetFileSize());
    assertEquals(256L << 20, UNSET.writeBufferSize());
    assertTrue(UNSET.writeBufferSpillable());
    assertEquals(5, UNSET.sortedRunCompactionTrigger());
    assertEquals(200, UNSET.maxSizeAmplificationPercent());
    assertEquals(1, UNSET.sizeRatio());
    assertTrue(UNSET.lookupWait());
    assertFalse(UNSET.changelogRowDeduplicate());
    assertEquals(256L << 20, UNSET.lookupCacheMaxMemorySize());
    assertEquals(10L << 30, UNSET.lookupCacheMaxDiskSize());
    assertTrue(UNSET.lookupCacheSpillCompressed());
    assertEquals(Duration.ofHours(1), UNSET.lookupCacheFileRetention());
    assertNull(UNSET.localDir());
    assertEquals(List.of(), UNSET.sequenceFields());
    assertFalse(UNSET.ignoreDelete());
    assertEquals("last_non_null_value", UNSET.aggregateFunction("amount"));
    assertFalse(UNSET.ignoreRetract("amount"));
    assertEquals(",", UNSET.listAggDelimiter("amount"));
    assertEquals(10, UNSET.snapshotNumRetainedMin());
    assertEquals(Integer.MAX_VALUE, UNSET.snapshotNumRetainedMax());
    assertEquals(Duration.ofHours(1), UNSET.snapshotTimeRetained());
    assertEquals(50, UNSET.snapshotExpireLimit());
    assertNull(UNSET.consumerExpirationTime());
    assertFalse(UNSET.writeOnly());
    assertEquals(10, UNSET.commitMaxRetries());
    assertEquals("__DEFAULT_PARTITION__", UNSET.partitionDefaultName());
  }

  @Test
  void derivedDefaultsFollowTheOptionsTheyDependOn() {
    assertEquals(8, UNSET.sortedRunStopTrigger());
    assertEquals(6, UNSET.numLevels());
    assertNull(UNSET.fullCompactionDeltaCommits());
    TableOptions options =
        TableOptions.of(
            Map.of(
                "num-sorted-run.compaction-trigger", "10",
                "changelog-producer", "full-compaction",
                "fields.default-aggregate-function", "sum"));
    assertEquals(13, options.sortedRunStopTrigger());
    assertEquals(11, options.numLevels());
    assertEquals(1, options.fullCompactionDeltaCommits());
    assertEquals("sum", options.aggregateFunction("amount"));
  }

  @Test
  void storedValuesAreParsedInPaimonsForms() {
    TableOptions options =
        TableOptions.of(
            Map.of(
                "target-file-size", "64 kb",
                "snapshot.time-retained", "30 min",
                "lookup.cache-spill-compression", "none",
                "num-sorted-run.stop-trigger", "3",
                "fields.amount.aggregate-function", "max",
                "bucket-key", "order_id, store_id"));
    assertEquals(64L << 10, options.targetFileSize());
    assertEquals(Duration.ofMinutes(30), options.snapshotTimeRetained());
    assertFalse(options.lookupCacheSpillCompressed());
    assertEquals(5, options.sortedRunStopTrigger(), "never below the compaction trigger");
    assertEquals("max", options.aggregateFunction("amount"));
    assertEquals(List.of("order_id", "store_id"), options.bucketKey());
  }

  @Test
  void ignoreDeleteRulesOverPaimonsOlderKeysWhichAreReadInOrder() {
    assertTrue(TableOptions.of(Map.of("partial-update.ignore-delete", "true")).ignoreDelete());
    assertFalse(
        TableOptions.of(Map.of("ignore-delete", "false", "first-row.ignore-delete", "true"))
            .ignoreDelete());
    assertFalse(
        TableOptions.of(
                Map.of("first-row.ignore-delete", "false", "deduplicate.ignore-delete", "true"))
            .ignoreDelete());
  }

  @Test
  void sequenceGroupsMapTheirSequenceFieldsToTheColumnsTheyOrder() {
    TableOptions options =
        TableOptions.of(
            Map.of(
                "fields.a,b.sequence-group", "x, y",
                "fields.c.sequence-group", "z",
                "fields.c.aggregate-function", "sum"));
    assertEquals(
        Map.of(List.of("a", "b"), List.of("x", "y"), List.of("c"), List.of("z")),
        options.sequenceGroups());
  }
}
