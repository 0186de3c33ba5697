package io.changelake.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;

/**
 * Test fixture: collects what a DirectRunner pipeline emits into memory of the test's JVM, so a
 * test can watch an unbounded pipeline while it runs and assert on exact multisets afterwards.
 */
final class CollectedRows<T> {

  private static final Map<String, Queue<Object>> SINKS = new ConcurrentHashMap<>();

  private final String id = UUID.randomUUID().toString();

  CollectedRows() {
    SINKS.put(id, new ConcurrentLinkedQueue<>());
  }

  /** Adds every element of {@code elements} to this collection as the pipeline emits it. */
  void collect(PCollection<T> elements) {
    elements.apply("Collect", ParDo.of(new AddFn<>(id)));
  }

  @SuppressWarnings("unchecked")
  List<T> elements() {
    List<T> copy = new ArrayList<>();
    for (Object o : SINKS.get(id)) {
      copy.add((T) o);
    }
    return copy;
  }

  int size() {
    return SINKS.get(id).size();
  }

  private static final class AddFn<T> extends DoFn<T, Void> {
    private final String id;

    AddFn(String id) {
      this.id = id;
    }

    @ProcessElement
    public void processElement(@Element T element) {
      SINKS.get(id).add(element);
    }
  }
}
