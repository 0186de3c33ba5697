package io.changelake.beam;

import io.changelake.table.StartingPoint;
import java.io.Serializable;

/**
 * Where a changelog read begins, as serializable values; {@link #startingPoint()} turns it into
 * storage-s3's {@link StartingPoint} on the worker that resolves it.
 *
 * @param mode the scan mode
 * @param value the snapshot id or epoch milliseconds the mode needs, else 0
 * @param consumerId a consumer whose recorded progress wins over the mode, or null
 */
record ChangelogStart(Mode mode, long value, String consumerId) implements Serializable {

  /** Paimon's scan modes. */
  enum Mode {
    LATEST_FULL,
    LATEST,
    FROM_SNAPSHOT,
    FROM_TIMESTAMP
  }

  ChangelogStart withConsumerId(String id) {
    return new ChangelogStart(mode, value, id);
  }

  StartingPoint startingPoint() {
    StartingPoint point =
        switch (mode) {
          case LATEST_FULL -> StartingPoint.latestFull();
          case LATEST -> StartingPoint.latest();
          case FROM_SNAPSHOT -> StartingPoint.fromSnapshot(value);
          case FROM_TIMESTAMP -> StartingPoint.fromTimestamp(value);
        };
    return consumerId == null ? point : StartingPoint.resume(consumerId, point);
  }
}
