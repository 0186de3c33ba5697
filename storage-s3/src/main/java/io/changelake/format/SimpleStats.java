package io.changelake.format;

import java.util.List;

/**
 * Per-column statistics of a file or of a manifest's partitions, as Paimon stores them: minimums
 * and maximums as serialized rows, and a null count per column (an entry may itself be null when
 * unknown).
 *
 * @param minValues the minimum of each column, as a serialized row
 * @param maxValues the maximum of each column, as a serialized row
 * @param nullCounts the number of nulls in each column
 */
public record SimpleStats(
    SerializedRow minValues, SerializedRow maxValues, List<Long> nullCounts) {}
