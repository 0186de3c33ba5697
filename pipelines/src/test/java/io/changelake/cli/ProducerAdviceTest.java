package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.MergeEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProducerAdviceTest {

  /** 1000 writes, 400 updates, commits every {@code gapSeconds}. */
  private static WriteSample upserts(long gapSeconds) {
    return new WriteSample(1, 10, 1000, 400, 0, 0, List.of(gapSeconds * 1000, gapSeconds * 1000));
  }

  private static ProducerAdvice.Advice advise(
      ChangelogProducer current, MergeEngine engine, WriteSample sample, long keys, Long latency) {
    return ProducerAdvice.advise(
        new ProducerAdvice.Facts(current, engine, sample, keys, latency, false, false));
  }

  @Test
  void minutesOfLatencyOnHugeTablesCallForFullCompactionSizedToTheBudget() {
    ProducerAdvice.Advice advice =
        advise(ChangelogProducer.NONE, MergeEngine.DEDUPLICATE, upserts(30), 200_000_000L, 600L);

    assertEquals(ChangelogProducer.FULL_COMPACTION, advice.producer());
    assertEquals(
        "changelog-producer=full-compaction full-compaction.delta-commits=20", advice.options());
  }

  @Test
  void fullCompactionNeverRunsEveryOneOrTwoCommits() {
    ProducerAdvice.Advice advice =
        advise(ChangelogProducer.NONE, MergeEngine.DEDUPLICATE, upserts(300), 200_000_000L, 600L);

    assertEquals(ProducerAdvice.MIN_DELTA_COMMITS, advice.deltaCommits());
  }

  @Test
  void minutesOfLatencyOnSmallTablesStayWithLookup() {
    ProducerAdvice.Advice advice =
        advise(ChangelogProducer.NONE, MergeEngine.DEDUPLICATE, upserts(30), 1_000_000L, 600L);

    assertEquals(ChangelogProducer.LOOKUP, advice.producer());
  }

  @Test
  void firstRowTakesLookupWhateverTheBudget() {
    ProducerAdvice.Advice advice =
        advise(ChangelogProducer.NONE, MergeEngine.FIRST_ROW, upserts(30), 200_000_000L, 600L);

    assertEquals(ChangelogProducer.LOOKUP, advice.producer());
  }

  @Test
  void anInputTableWhoseUpdatesLackBeforeImagesIsWarnedAbout() {
    ProducerAdvice.Advice advice =
        advise(ChangelogProducer.INPUT, MergeEngine.DEDUPLICATE, upserts(30), 1_000L, null);

    assertEquals(ChangelogProducer.LOOKUP, advice.producer());
    assertTrue(
        advice.reasons().stream()
            .anyMatch(
                r ->
                    r.startsWith(
                        "warning: the table uses input, but its changelog has 400 updates and no -U")),
        advice.reasons().toString());
  }

  @Test
  void beforeImagesSeenInAnInputChangelogKeepInput() {
    WriteSample withBeforeImages = new WriteSample(1, 10, 1000, 400, 0, 400, List.of());

    ProducerAdvice.Advice advice =
        advise(ChangelogProducer.INPUT, MergeEngine.DEDUPLICATE, withBeforeImages, 1_000L, null);

    assertEquals(ChangelogProducer.INPUT, advice.producer());
    assertTrue(advice.reasons().contains("the table already uses input"));
  }
}
