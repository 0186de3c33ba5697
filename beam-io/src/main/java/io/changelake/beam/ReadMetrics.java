package io.changelake.beam;

import io.changelake.types.RowKind;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.Metrics;

/**
 * The Beam metrics of the read stages, all in namespace {@value #NAMESPACE}; package-info lists
 * what each means to an operator.
 */
final class ReadMetrics {

  static final String NAMESPACE = "changelake";

  static final Counter SNAPSHOTS_SEEN = Metrics.counter(NAMESPACE, "snapshots_seen");
  static final Counter READ_TASKS = Metrics.counter(NAMESPACE, "read_tasks");
  static final Gauge LAG_SNAPSHOTS = Metrics.gauge(NAMESPACE, "lag_snapshots");
  static final Gauge LAG_MILLIS = Metrics.gauge(NAMESPACE, "lag_millis");

  private static final Counter[] ROWS_BY_KIND = {
    Metrics.counter(NAMESPACE, "rows_insert"),
    Metrics.counter(NAMESPACE, "rows_update_before"),
    Metrics.counter(NAMESPACE, "rows_update_after"),
    Metrics.counter(NAMESPACE, "rows_delete")
  };

  private ReadMetrics() {}

  /** The counter of rows of {@code kind}, {@code rows_<kind>}. */
  static Counter rows(RowKind kind) {
    return ROWS_BY_KIND[kind.toByteValue()];
  }
}
