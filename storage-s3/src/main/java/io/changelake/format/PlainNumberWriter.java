package io.changelake.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;

/**
 * The PLAIN values of an INT32 or INT64 page, as Parquet's {@code PlainValuesWriter} writes them
 * (each value little-endian, 4 or 8 bytes), into one array that grows by doubling and is kept from
 * page to page.
 *
 * <p>Why: Parquet's writer passes each value through a stream of 8 bytes into a list of byte
 * buffers ({@code LittleEndianDataOutputStream} over {@code CapacityByteArrayOutputStream}), with
 * its checks and buffer bookkeeping per value; a profile of a key-value file's write put that at a
 * sixth of the file's encoding. Here a value is one store.
 *
 * <p>{@link #getBytes} hands out a view of the array: a page's bytes are copied or compressed by
 * the page writer before {@link #reset}, as with Parquet's writer, whose buffers are reused too.
 */
final class PlainNumberWriter extends ValuesWriter {

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final int pageSize;
  private byte[] bytes;
  private int size;

  /**
   * @param initialSize bytes of the array at first
   * @param pageSize the page size, which a page's values rarely exceed: growth past it is by a
   *     fifth of it rather than by doubling, as Parquet's buffers grow
   */
  PlainNumberWriter(int initialSize, int pageSize) {
    this.bytes = new byte[Math.max(initialSize, 8)];
    this.pageSize = pageSize;
  }

  @Override
  public void writeInteger(int v) {
    if (size + 4 > bytes.length) {
      grow();
    }
    INTS.set(bytes, size, v);
    size += 4;
  }

  @Override
  public void writeLong(long v) {
    if (size + 8 > bytes.length) {
      grow();
    }
    LONGS.set(bytes, size, v);
    size += 8;
  }

  private void grow() {
    int step = bytes.length < pageSize / 5 ? bytes.length : Math.max(pageSize / 5, 8);
    bytes = Arrays.copyOf(bytes, bytes.length + step);
  }

  @Override
  public long getBufferedSize() {
    return size;
  }

  @Override
  public BytesInput getBytes() {
    return BytesInput.from(bytes, 0, size);
  }

  @Override
  public Encoding getEncoding() {
    return Encoding.PLAIN;
  }

  @Override
  public void reset() {
    size = 0;
  }

  @Override
  public long getAllocatedSize() {
    return bytes.length;
  }

  @Override
  public String memUsageString(String prefix) {
    return prefix + " PLAIN " + size + " of " + bytes.length + " bytes";
  }
}
