package io.changelake.mergetree;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A sorted run of a write buffer's records spilled to a local file, so that a buffer larger than
 * its memory budget does not hold every record on the heap. Each record is stored as the buffer
 * holds it: its sequence number, kind and key (the value of an integral key, else the key's
 * BinaryRow), then its row's BinaryRow. It is read back record by record into one reused array
 * ({@link BufferRun}), never decoded.
 */
final class BufferSpill implements Closeable {

  private final Path file;
  private final boolean integralKey;
  private DataOutputStream out;
  private DataInputStream reading;
  private long count;

  private BufferSpill(Path file, boolean integralKey, DataOutputStream out) {
    this.file = file;
    this.integralKey = integralKey;
    this.out = out;
  }

  /**
   * A new spill file in {@code folder}, to {@link #append} to, in key order, then {@link #finish}.
   */
  static BufferSpill create(Path folder, boolean integralKey) throws IOException {
    Files.createDirectories(folder);
    Path file = Files.createTempFile(folder, "spill-", ".bin");
    return new BufferSpill(
        file,
        integralKey,
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)));
  }

  /** Appends the current record of {@code run}. */
  void append(BufferRun run) throws IOException {
    out.writeLong(run.sequenceNumber());
    out.writeByte(run.kind());
    if (integralKey) {
      out.writeLong(run.integralKey());
    } else {
      out.writeInt(run.keyLength());
      out.write(run.bytes(), run.keyStart(), run.keyLength());
    }
    out.writeInt(run.rowLength());
    out.write(run.bytes(), run.rowStart(), run.rowLength());
    count++;
  }

  /** Ends the writing: the records can be {@link #read} from now on. */
  void finish() throws IOException {
    out.close();
    out = null;
  }

  /**
   * The records in the order they were appended: a new reading, which ends the one before. Closing
   * the spill ends the reading and deletes its file.
   */
  BufferRun read() throws IOException {
    if (reading != null) {
      reading.close();
    }
    reading = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
    return new Reader(reading);
  }

  @Override
  public void close() throws IOException {
    try {
      // A flush that failed midway leaves its reading open.
      if (reading != null) {
        reading.close();
      }
      if (out != null) {
        out.close();
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Reads one record at a time into an array it reuses: the key's BinaryRow, then the row's. */
  private final class Reader implements BufferRun {

    private final DataInputStream in;
    private long remaining = count;
    private byte[] bytes = new byte[256];
    private long sequenceNumber;
    private byte kind;
    private long integralKeyValue;
    private int keyLength;
    private int rowLength;

    private Reader(DataInputStream in) {
      this.in = in;
    }

    @Override
    public boolean advance() {
      if (remaining == 0) {
        closeQuietly();
        return false;
      }
      try {
        sequenceNumber = in.readLong();
        kind = in.readByte();
        if (integralKey) {
          integralKeyValue = in.readLong();
          keyLength = 0;
        } else {
          keyLength = in.readInt();
          fill(0, keyLength);
        }
        rowLength = in.readInt();
        fill(keyLength, rowLength);
      } catch (EOFException e) {
        throw new UncheckedIOException("spill file " + file + " ended early", e);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      remaining--;
      return true;
    }

    private void fill(int at, int length) throws IOException {
      if (at + length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, at + length));
      }
      in.readFully(bytes, at, length);
    }

    private void closeQuietly() {
      try {
        in.close();
      } catch (IOException ignored) {
        // Reading is done; a failed close of a local temp file loses nothing.
      }
    }

    @Override
    public long sequenceNumber() {
      return sequenceNumber;
    }

    @Override
    public byte kind() {
      return kind;
    }

    @Override
    public long integralKey() {
      return integralKeyValue;
    }

    @Override
    public byte[] bytes() {
      return bytes;
    }

    @Override
    public int keyStart() {
      return 0;
    }

    @Override
    public int keyLength() {
      return keyLength;
    }

    @Override
    public int rowStart() {
      return keyLength;
    }

    @Override
    public int rowLength() {
      return rowLength;
    }
  }
}
