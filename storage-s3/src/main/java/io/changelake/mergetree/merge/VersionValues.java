package io.changelake.mergetree.merge;

import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;

/**
 * The values and the key of a version, as an engine that builds its own row reads them
 * (partial-update, aggregation): a key-value's own arrays; a view's values read into one reused
 * array, valid until the next version, and its key into a new one. A view thus costs the values it
 * reads, but no key-value, key or value array per version.
 */
final class VersionValues {

  private final int[] keyInValue;
  private final Object[] values;

  VersionValues(TableSchema schema) {
    this.keyInValue = schema.keyIndexes();
    this.values = new Object[schema.rowType().size()];
  }

  /** Every column of {@code version}: not to be kept past the next call, nor written to. */
  Object[] values(ChangeRow version) {
    if (version instanceof KeyValue kv) {
      return kv.value();
    }
    for (int i = 0; i < values.length; i++) {
      values[i] = version.get(i);
    }
    return values;
  }

  /** The key of {@code version}, an array of its own. */
  Object[] key(ChangeRow version) {
    return version instanceof KeyValue kv ? kv.key() : version.values(keyInValue);
  }
}
