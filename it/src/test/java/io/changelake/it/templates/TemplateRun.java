package io.changelake.it.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.ObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.templates.TemplateCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.GaugeResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/** Launching a template as {@code ./changelake run} does, and reading what it left. */
final class TemplateRun {

  private TemplateRun() {}

  static void run(TemplateCatalog template, List<String> args) {
    assertEquals(PipelineResult.State.DONE, start(template, args).waitUntilFinish());
  }

  /**
   * Starts a template on the DirectRunner and returns its result; it returns before the pipeline
   * ends only if {@code args} hold {@code --blockOnRun=false}.
   */
  static PipelineResult start(TemplateCatalog template, List<String> args) {
    List<String> all = new ArrayList<>(args);
    all.addAll(
        List.of(
            "--runner=DirectRunner", "--enforceImmutability=false", "--enforceEncodability=false"));
    return template.run(all.toArray(String[]::new));
  }

  /**
   * A template started with {@code --blockOnRun=false}, watched: a thread of its own waits for the
   * pipeline's end from the start, since the DirectRunner hands a pipeline's failure only to a
   * {@code waitUntilFinish} that is waiting when it happens (a later one sees the state FAILED and
   * no cause).
   */
  static final class Running implements AutoCloseable {
    private final PipelineResult result;
    private final CompletableFuture<PipelineResult.State> end = new CompletableFuture<>();

    private Running(PipelineResult result) {
      this.result = result;
      Thread waiter =
          new Thread(
              () -> {
                try {
                  end.complete(result.waitUntilFinish());
                } catch (RuntimeException | Error failure) {
                  end.completeExceptionally(failure);
                }
              },
              "await-pipeline-end");
      waiter.setDaemon(true);
      waiter.start();
    }

    PipelineResult.State state() {
      return result.getState();
    }

    /**
     * Fails the test if the pipeline has ended, with what it was still expected to do and the
     * pipeline's own failure as the cause.
     */
    void assertRunning(String before) {
      if (!end.isDone()) {
        return;
      }
      Throwable cause = null;
      try {
        end.get();
      } catch (ExecutionException failure) {
        cause = failure.getCause();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new AssertionError(
          "the pipeline ended " + result.getState() + " before " + before, cause);
    }

    /**
     * A metric of {@code changelake.templates} while the pipeline runs, summed over its steps: a
     * counter's attempted value, or a gauge's latest; 0 while nothing reported it.
     */
    long metric(String name) {
      MetricQueryResults found =
          result
              .metrics()
              .queryMetrics(
                  MetricsFilter.builder()
                      .addNameFilter(MetricNameFilter.named("changelake.templates", name))
                      .build());
      long sum = 0;
      for (MetricResult<Long> counter : found.getCounters()) {
        sum += counter.getAttempted();
      }
      for (MetricResult<GaugeResult> gauge : found.getGauges()) {
        sum += gauge.getAttempted().getValue();
      }
      return sum;
    }

    @Override
    public void close() throws IOException {
      result.cancel();
    }

    @Override
    public String toString() {
      return result.toString();
    }
  }

  /** {@link #start}, watched: see {@link Running}. */
  static Running startWatched(TemplateCatalog template, List<String> args) {
    return new Running(start(template, args));
  }

  /**
   * A table's rows at its latest snapshot, each as its values' text, sorted; without the CDC
   * templates' {@code _sequence} column (the events' source positions), which the checks of values
   * do not spell out.
   */
  static List<String> rows(ObjectStore store, String table) throws IOException {
    Table opened = Table.open(store, new TablePath("shop", table));
    int sequence = opened.schema().rowType().indexOf("_sequence");
    return opened.newRead().readAll().stream()
        .map(row -> Arrays.toString(sequence < 0 ? row : without(row, sequence)))
        .sorted()
        .toList();
  }

  private static Object[] without(Object[] row, int column) {
    Object[] rest = new Object[row.length - 1];
    System.arraycopy(row, 0, rest, 0, column);
    System.arraycopy(row, column + 1, rest, column, rest.length - column);
    return rest;
  }

  static long latestSnapshot(ObjectStore store, String table) throws IOException {
    return Table.open(store, new TablePath("shop", table)).snapshots().latestId().orElseThrow();
  }

  /** Every dead-letter line under a folder, sorted. */
  static List<String> deadLetters(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith("dead-letters"))
          .flatMap(
              f -> {
                try {
                  return Files.readAllLines(f).stream();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sorted()
          .toList();
    }
  }
}
