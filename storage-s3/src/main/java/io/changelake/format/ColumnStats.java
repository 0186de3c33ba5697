package io.changelake.format;

/**
 * What a data file's metadata records about one column: its smallest and largest value (in the
 * column's Java class, see {@link io.changelake.types.TypeRoot}) and its number of nulls.
 *
 * <p>A bound is null when it is unknown: the column holds only nulls, the stats mode keeps no
 * bounds, or Paimon keeps none for the type. A truncated string bound is a bound, not a value of
 * the column: the min is a prefix of the true min, the max a string greater than the true max.
 *
 * @param min the lower bound, or null if unknown
 * @param max the upper bound, or null if unknown
 * @param nullCount the number of nulls, or null if not recorded (stats mode {@code none})
 */
public record ColumnStats(Object min, Object max, Long nullCount) {}
