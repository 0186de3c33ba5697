package io.changelake.format;

import io.changelake.store.ObjectStore;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over one object of a store, or a range of one (a part of a compacted
 * changelog file: {@link CompactedChangelogName}), read with {@link ObjectStore#readRange}.
 *
 * <p>On S3 every range is a request, so small reads are served from a read-ahead buffer: a miss
 * fetches {@code readAhead} bytes from the position, or the whole tail when the position is within
 * {@code readAhead} of the end, because Parquet reads its footer backwards (the last 8 bytes, then
 * the footer before them). Reads at least as large as the buffer (column chunks) go straight to the
 * store.
 */
final class ObjectInputFile implements InputFile {

  private final ObjectStore store;
  private final String path;
  private final long offset;
  private final long length;
  private final int readAhead;

  /** The whole object at {@code path}, of {@code length} bytes. */
  ObjectInputFile(ObjectStore store, String path, long length, int readAhead) {
    this(store, path, 0, length, readAhead);
  }

  /** The {@code length} bytes from {@code offset} of the object at {@code path}, as a file. */
  ObjectInputFile(ObjectStore store, String path, long offset, long length, int readAhead) {
    this.store = store;
    this.path = path;
    this.offset = offset;
    this.length = length;
    this.readAhead = readAhead;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public Stream newStream() {
    return new Stream();
  }

  @Override
  public String toString() {
    return offset == 0 ? store.root() + path : store.root() + path + " from byte " + offset;
  }

  /** A stream over the file, with the read-ahead buffer; see {@link ObjectInputFile}. */
  final class Stream extends SeekableInputStream {
    private long position;
    private byte[] buffer = new byte[0];
    private long bufferStart;

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPos) throws IOException {
      if (newPos < 0 || newPos > length) {
        throw new EOFException("seek to " + newPos + " outside " + path + " (size " + length + ")");
      }
      position = newPos;
    }

    @Override
    public int read() throws IOException {
      if (position >= length) {
        return -1;
      }
      fill(1);
      return buffer[(int) (position++ - bufferStart)] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (position >= length) {
        return -1;
      }
      int n = (int) Math.min(len, length - position);
      readFully(b, off, n);
      return n;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
      if (position + len > length) {
        throw new EOFException(
            path + " ends at " + length + ", before " + len + " bytes from " + position);
      }
      if (len >= readAhead) {
        System.arraycopy(readBytes(len), 0, bytes, start, len);
        return;
      }
      fill(len);
      System.arraycopy(buffer, (int) (position - bufferStart), bytes, start, len);
      position += len;
    }

    /**
     * The next {@code len} bytes from the position, which moves past them: a run of column chunks.
     * A range at least as large as the read-ahead comes in the array the store read it into, where
     * {@link #readFully(byte[])} would copy it once more into the caller's; a shorter one comes
     * from the buffer.
     */
    byte[] readBytes(int len) throws IOException {
      if (len < readAhead || position + len > length) {
        // From the buffer, or past the end: readFully copies it, or says where the file ends.
        byte[] bytes = new byte[len];
        readFully(bytes, 0, len);
        return bytes;
      }
      byte[] bytes = store.readRange(path, offset + position, len);
      position += len;
      return bytes;
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      if (!buf.hasRemaining()) {
        return 0;
      }
      if (position >= length) {
        return -1;
      }
      int n = (int) Math.min(buf.remaining(), length - position);
      byte[] bytes = new byte[n];
      readFully(bytes, 0, n);
      buf.put(bytes);
      return n;
    }

    @Override
    public void readFully(ByteBuffer buf) throws IOException {
      buf.put(readBytes(buf.remaining()));
    }

    /** Makes the buffer hold {@code len} (less than the read-ahead) bytes from the position. */
    private void fill(int len) throws IOException {
      if (position >= bufferStart && position + len <= bufferStart + buffer.length) {
        return;
      }
      long start = length - position <= readAhead ? Math.max(0, length - readAhead) : position;
      int size = (int) Math.min(readAhead, length - start);
      buffer = store.readRange(path, offset + start, size);
      bufferStart = start;
    }
  }
}
