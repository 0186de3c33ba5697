package io.changelake.beam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Streaming writes with TestStream, processing time advanced across commit intervals: the seed
 * story's changelog under the lookup and none producers.
 */
public class StreamingWriteTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private static final Duration INTERVAL = Duration.standardSeconds(10);

  /** 100 for order 1001, then a correction to 80, a commit interval apart. */
  private List<String> seedStory(String producer) throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    TestStream<Row> events =
        TestStream.create(RowCoder.of(OrderRows.SCHEMA))
            .addElements(OrderRows.change("+I", 1001L, 10L, 100L))
            .advanceProcessingTime(INTERVAL.plus(Duration.millis(1)))
            .advanceProcessingTime(INTERVAL.plus(Duration.millis(1)))
            .addElements(OrderRows.change("+I", 1001L, 10L, 80L))
            .advanceProcessingTime(INTERVAL.plus(Duration.millis(1)))
            .advanceProcessingTime(INTERVAL.plus(Duration.millis(1)))
            .advanceWatermarkToInfinity();
    PCollection<Row> input = pipeline.apply(events);
    input.apply(
        OrderRows.write(warehouse, Map.of("bucket", "1", "changelog-producer", producer))
            .withCommitInterval(INTERVAL)
            .withArrivalOrder());
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());
    return OrderRows.changelog(warehouse);
  }

  @Test
  public void lookupChangelogRetractsTheCorrectedAmount() throws Exception {
    assertEquals(
        List.of("+I[1001, 10, 100]", "-U[1001, 10, 100]", "+U[1001, 10, 80]"), seedStory("lookup"));
  }

  @Test
  public void noneProducerEmitsNoRetraction() throws Exception {
    List<String> changes = seedStory("none");
    assertEquals(List.of("+I[1001, 10, 100]", "+I[1001, 10, 80]"), changes);
    assertTrue(changes.stream().noneMatch(c -> c.startsWith("-U")));
  }
}
