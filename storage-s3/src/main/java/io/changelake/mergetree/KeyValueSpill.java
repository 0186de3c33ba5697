package io.changelake.mergetree;

import io.changelake.format.BinaryRowCodec;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
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
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A sorted run of key-values spilled to a local file, so a write buffer larger than its memory
 * budget does not hold every record on the heap. Records are stored as Paimon BinaryRow bytes (key,
 * then value) with their sequence number and kind.
 */
final class KeyValueSpill implements Closeable {

  private final Path file;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowCodec valueCodec;
  private final long count;

  private KeyValueSpill(Path file, RowType keyType, RowType valueType, long count) {
    this.file = file;
    this.keyCodec = new BinaryRowCodec(keyType);
    this.valueCodec = new BinaryRowCodec(valueType);
    this.count = count;
  }

  /** Writes the records, already sorted, to a new file in {@code folder}. */
  static KeyValueSpill write(
      Path folder, RowType keyType, RowType valueType, Iterator<KeyValue> sorted)
      throws IOException {
    Files.createDirectories(folder);
    Path file = Files.createTempFile(folder, "spill-", ".bin");
    BinaryRowCodec keyCodec = new BinaryRowCodec(keyType);
    BinaryRowCodec valueCodec = new BinaryRowCodec(valueType);
    long count = 0;
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
      while (sorted.hasNext()) {
        KeyValue kv = sorted.next();
        byte[] key = keyCodec.encodeRow(kv.key());
        byte[] value = valueCodec.encodeRow(kv.value());
        out.writeInt(key.length);
        out.write(key);
        out.writeLong(kv.sequenceNumber());
        out.writeByte(kv.kind().toByteValue());
        out.writeInt(value.length);
        out.write(value);
        count++;
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(file);
      throw e;
    }
    return new KeyValueSpill(file, keyType, valueType, count);
  }

  long count() {
    return count;
  }

  /** Reads the run back in order; close the spill to delete its file. */
  Iterator<KeyValue> read() throws IOException {
    DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
    return new Iterator<>() {
      private long remaining = count;

      @Override
      public boolean hasNext() {
        if (remaining == 0) {
          closeQuietly();
        }
        return remaining > 0;
      }

      @Override
      public KeyValue next() {
        if (remaining == 0) {
          throw new NoSuchElementException();
        }
        try {
          byte[] key = new byte[in.readInt()];
          in.readFully(key);
          long sequence = in.readLong();
          RowKind kind = RowKind.fromByteValue(in.readByte());
          byte[] value = new byte[in.readInt()];
          in.readFully(value);
          remaining--;
          return new KeyValue(
              keyCodec.decodeRow(key, 0), sequence, kind, valueCodec.decodeRow(value, 0));
        } catch (EOFException e) {
          throw new UncheckedIOException("spill file " + file + " ended early", e);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      private void closeQuietly() {
        try {
          in.close();
        } catch (IOException ignored) {
          // Reading is done; a failed close of a local temp file loses nothing.
        }
      }
    };
  }

  @Override
  public void close() throws IOException {
    Files.deleteIfExists(file);
  }
}
