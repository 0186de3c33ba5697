package io.changelake.store;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * The few operations a changelake table needs from the storage under it.
 *
 * <p>A store is rooted at a location (a local folder or an S3 bucket and prefix); every path given
 * to it is relative to that root, uses {@code /} as separator and never starts with {@code /}.
 * Objects are immutable once written, except through {@link #write}, which the table uses only for
 * hints that may lag (LATEST, EARLIEST, consumer progress).
 *
 * <p>The one operation the commit protocol relies on is {@link #createIfAbsent}: it must be atomic
 * against every concurrent writer, in this JVM and in others, so that exactly one committer wins a
 * snapshot id.
 *
 * <p>Implementations are thread-safe.
 */
public interface ObjectStore extends AutoCloseable {

  /**
   * The root this store resolves paths against, as a URI string ({@code file:///...}, {@code
   * s3://...}).
   */
  String root();

  /**
   * The whole object.
   *
   * @throws ObjectNotFoundException if there is no object at {@code path}
   */
  byte[] read(String path) throws IOException;

  /**
   * {@code length} bytes starting at {@code offset}.
   *
   * @throws ObjectNotFoundException if there is no object at {@code path}
   * @throws java.io.EOFException if the object ends before {@code offset + length}
   */
  byte[] readRange(String path, long offset, int length) throws IOException;

  /** Size and modification time of the object, or empty if there is none. */
  Optional<ObjectInfo> stat(String path) throws IOException;

  /** Whether an object exists at {@code path}. */
  default boolean exists(String path) throws IOException {
    return stat(path).isPresent();
  }

  /**
   * Writes (or replaces) the object at {@code path}; readers see the old or the new bytes, never a
   * part.
   */
  void write(String path, byte[] data) throws IOException;

  /**
   * A stream whose bytes become the object at {@code path} when it is closed; until then nothing is
   * visible. Large objects go to S3 as a multipart upload. If the stream is not closed (the writer
   * died), no object appears; an aborted multipart upload may be left for the bucket's lifecycle
   * rule.
   */
  OutputStream create(String path) throws IOException;

  /**
   * Creates the object at {@code path} only if none exists, atomically against every concurrent
   * writer.
   *
   * @return true if this call created it, false if an object was already there
   */
  boolean createIfAbsent(String path, byte[] data) throws IOException;

  /** Every object whose path starts with {@code prefix}, at any depth, in path order. */
  List<ObjectInfo> list(String prefix) throws IOException;

  /** Deletes the object at {@code path}; deleting a missing object is not an error. */
  void delete(String path) throws IOException;

  @Override
  void close() throws IOException;
}
