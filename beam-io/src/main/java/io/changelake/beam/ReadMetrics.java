package io.changelake.beam;

import io.changelake.types.RowKind;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.Metrics;

/**
 * The Beam metrics of the reads ({@link ReadRows}, {@link ReadChangelog}), in one namespace
 * ({@value #NAMESPACE}) and camelCase as {@link WriteMetrics} and Beam's own IOs name theirs. What
 * each means to an operator: the package documentation.
 */
final class ReadMetrics {

  static final String NAMESPACE = "changelake.read";

  static final Counter SNAPSHOTS_SEEN = Metrics.counter(NAMESPACE, "snapshotsSeen");
  static final Counter READ_TASKS = Metrics.counter(NAMESPACE, "readTasks");
  static final Gauge LAG_SNAPSHOTS = Metrics.gauge(NAMESPACE, "lagSnapshots");
  static final Gauge LAG_MILLIS = Metrics.gauge(NAMESPACE, "lagMillis");
  static final Gauge COLUMNS_NOT_EMITTED = Metrics.gauge(NAMESPACE, "columnsNotEmitted");

  private static final Counter[] ROWS_BY_KIND = {
    Metrics.counter(NAMESPACE, "rowsInsert"),
    Metrics.counter(NAMESPACE, "rowsUpdateBefore"),
    Metrics.counter(NAMESPACE, "rowsUpdateAfter"),
    Metrics.counter(NAMESPACE, "rowsDelete")
  };

  private ReadMetrics() {}

  /** The counter of rows of {@code kind}: {@code rowsInsert}, {@code rowsUpdateBefore}, ... */
  static Counter rows(RowKind kind) {
    return ROWS_BY_KIND[kind.toByteValue()];
  }
}
