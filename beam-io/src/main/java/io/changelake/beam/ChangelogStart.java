package io.changelake.beam;

import io.changelake.table.StartingPoint;
import java.io.Serializable;

/**
 * Where a changelog read begins, as serializable values; {@link #startingPoint()} turns it into
 * storage-s3's {@link StartingPoint} on the worker that resolves it.
 *
 * @param mode the scan mode
 * @param value the snapshot id or epoch milliseconds the mode needs, else 0
 * @param tagName the tag {@link Mode#FROM_TAG} starts at, else null
 * @param consumerId a consumer whose recorded progress wins over the mode, or null
 */
record ChangelogStart(Mode mode, long value, String tagName, String consumerId)
    implements Serializable {

  /** Paimon's scan modes ({@code FROM_TAG} is {@code scan.tag-name}). */
  enum Mode {
    LATEST_FULL,
    LATEST,
    FROM_SNAPSHOT,
    FROM_TIMESTAMP,
    FROM_TAG
  }

  ChangelogStart withConsumerId(String id) {
    return new ChangelogStart(mode, value, tagName, id);
  }

  StartingPoint startingPoint() {
    StartingPoint point =
        switch (mode) {
          case LATEST_FULL -> StartingPoint.latestFull();
          case LATEST -> StartingPoint.latest();
          case FROM_SNAPSHOT -> StartingPoint.fromSnapshot(value);
          case FROM_TIMESTAMP -> StartingPoint.fromTimestamp(value);
          case FROM_TAG -> StartingPoint.fromTag(tagName);
        };
    return consumerId == null ? point : StartingPoint.resume(consumerId, point);
  }
}
