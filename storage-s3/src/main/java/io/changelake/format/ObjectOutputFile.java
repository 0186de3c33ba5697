package io.changelake.format;

import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} that becomes one object of a store, written through {@link
 * ObjectStore#create}: the object appears whole when Parquet closes the stream.
 */
final class ObjectOutputFile implements OutputFile {

  private final ObjectStore store;
  private final String path;
  private CountingStream stream;

  ObjectOutputFile(ObjectStore store, String path) {
    this.store = store;
    this.path = path;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    if (stream != null) {
      throw new IllegalStateException("Parquet opened " + path + " twice");
    }
    stream = new CountingStream(store.create(path));
    return stream;
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    return create(blockSizeHint);
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return path;
  }

  /** The bytes written so far; the file's size once Parquet has closed it. */
  long bytesWritten() {
    return stream == null ? 0 : stream.position;
  }

  /** Counts the position Parquet records in its footer; the store's stream knows none. */
  private static final class CountingStream extends PositionOutputStream {
    private final OutputStream out;
    private long position;

    CountingStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      position += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
