package io.changelake.mergetree.lookup;

import io.changelake.format.DataFileMeta;
import io.changelake.types.KeyValue;
import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;

/**
 * Opens a data file of the bucket to read its key-values in key order; {@link LookupLevels} reads a
 * file once to build its local copy. A bucket writer passes {@code BucketFiles::open}.
 *
 * @param <R> the reader, which the caller of {@link #open} closes
 */
@FunctionalInterface
public interface DataFileOpener<R extends Iterator<KeyValue> & Closeable> {

  /** A reader of every key-value of {@code file}, every table column, in key order. */
  R open(DataFileMeta file) throws IOException;
}
