package io.changelake.beam;

import io.changelake.types.RowKind;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.util.VarInt;

/**
 * The coder of {@link KindedRow}: the length of what follows, then the kind byte, the schema id,
 * each value behind a tag of its Java class, then the source position (a flag byte, then partition
 * and offset), then, for a half of a key's move between partitions, the move's id (8 bytes; a row
 * that is none ends before, as every row encoded before moves had ids does).
 *
 * <p>Self-describing on purpose: the coder must exist when the pipeline is built, and the column
 * types of a table that already exists are only known once a worker opens it.
 *
 * <p>A row is put together in a buffer of its thread and written to the stream at once, and read
 * back from the stream at once: runners hand a coder streams that may cost a call, or a lock, per
 * byte (a {@code ByteArrayOutputStream} locks on every write), and the DirectRunner's group-by-key
 * copies every row through this coder each time a bag is read.
 */
final class KindedRowCoder extends CustomCoder<KindedRow> {
  private static final long serialVersionUID = 1L;

  private static final KindedRowCoder INSTANCE = new KindedRowCoder();

  /** A buffer grown past this is not kept for the next row of its thread. */
  private static final int KEPT_BUFFER_BYTES = 1 << 16;

  private static final ThreadLocal<ByteBuffer> BUFFERS =
      ThreadLocal.withInitial(() -> ByteBuffer.allocate(256));

  private static final byte NULL = 0;
  private static final byte BOOLEAN = 1;
  private static final byte BYTE = 2;
  private static final byte SHORT = 3;
  private static final byte INT = 4;
  private static final byte LONG = 5;
  private static final byte FLOAT = 6;
  private static final byte DOUBLE = 7;
  private static final byte DECIMAL = 8;
  private static final byte STRING = 9;
  private static final byte BYTES = 10;
  private static final byte DATE = 11;
  private static final byte TIMESTAMP = 12;
  private static final byte INSTANT = 13;

  static KindedRowCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(KindedRow row, OutputStream stream) throws IOException {
    Output out = new Output(BUFFERS.get());
    out.room(13).put(row.kind().toByteValue()).putLong(row.schemaId()).putInt(row.values().length);
    for (Object v : row.values()) {
      writeValue(v, out);
    }
    PositionRange source = row.source();
    out.room(1).put((byte) (source != null ? 1 : 0));
    if (source != null) {
      writeBytes(source.partition().getBytes(StandardCharsets.UTF_8), out);
      out.room(16).putLong(source.first()).putLong(source.last());
    }
    if (row.move() != KindedRow.NO_MOVE) {
      out.room(8).putLong(row.move());
    }
    ByteBuffer written = out.buffer;
    VarInt.encode(written.position(), stream);
    stream.write(written.array(), written.arrayOffset(), written.position());
    BUFFERS.set(
        written.capacity() > KEPT_BUFFER_BYTES ? ByteBuffer.allocate(256) : written.clear());
  }

  // A timestamp is written as epoch seconds and the nanos of that second: getNano is that part.
  @SuppressWarnings("JavaLocalDateTimeGetNano")
  private static void writeValue(Object v, Output out) throws CoderException {
    if (v == null) {
      out.room(1).put(NULL);
    } else if (v instanceof Boolean b) {
      out.room(2).put(BOOLEAN).put((byte) (b ? 1 : 0));
    } else if (v instanceof Byte b) {
      out.room(2).put(BYTE).put(b);
    } else if (v instanceof Short s) {
      out.room(3).put(SHORT).putShort(s);
    } else if (v instanceof Integer i) {
      out.room(5).put(INT).putInt(i);
    } else if (v instanceof Long l) {
      out.room(9).put(LONG).putLong(l);
    } else if (v instanceof Float f) {
      out.room(5).put(FLOAT).putFloat(f);
    } else if (v instanceof Double d) {
      out.room(9).put(DOUBLE).putDouble(d);
    } else if (v instanceof BigDecimal d) {
      out.room(5).put(DECIMAL).putInt(d.scale());
      writeBytes(d.unscaledValue().toByteArray(), out);
    } else if (v instanceof String s) {
      out.room(1).put(STRING);
      writeBytes(s.getBytes(StandardCharsets.UTF_8), out);
    } else if (v instanceof byte[] b) {
      out.room(1).put(BYTES);
      writeBytes(b, out);
    } else if (v instanceof LocalDate d) {
      out.room(9).put(DATE).putLong(d.toEpochDay());
    } else if (v instanceof LocalDateTime t) {
      out.room(13).put(TIMESTAMP).putLong(t.toEpochSecond(ZoneOffset.UTC)).putInt(t.getNano());
    } else if (v instanceof Instant t) {
      out.room(13).put(INSTANT).putLong(t.getEpochSecond()).putInt(t.getNano());
    } else {
      throw new CoderException(
          "a table row holds a " + v.getClass().getName() + ", which no column type takes");
    }
  }

  private static void writeBytes(byte[] b, Output out) {
    out.room(4 + b.length).putInt(b.length).put(b);
  }

  @Override
  public KindedRow decode(InputStream stream) throws IOException {
    byte[] encoded = new byte[VarInt.decodeInt(stream)];
    int read = 0;
    while (read < encoded.length) {
      int n = stream.read(encoded, read, encoded.length - read);
      if (n < 0) {
        throw new EOFException(
            "an encoded table row ends after " + read + " of its " + encoded.length + " bytes");
      }
      read += n;
    }
    ByteBuffer in = ByteBuffer.wrap(encoded);
    try {
      RowKind kind = RowKind.fromByteValue(in.get());
      long schemaId = in.getLong();
      Object[] values = new Object[in.getInt()];
      for (int i = 0; i < values.length; i++) {
        values[i] = readValue(in);
      }
      PositionRange source =
          in.get() != 0
              ? new PositionRange(
                  new String(readBytes(in), StandardCharsets.UTF_8), in.getLong(), in.getLong())
              : null;
      long move = in.hasRemaining() ? in.getLong() : KindedRow.NO_MOVE;
      return new KindedRow(kind, values, schemaId, source, move);
    } catch (BufferUnderflowException | NegativeArraySizeException e) {
      throw new CoderException("an encoded table row is shorter than its values say", e);
    }
  }

  private static Object readValue(ByteBuffer in) throws CoderException {
    byte tag = in.get();
    switch (tag) {
      case NULL:
        return null;
      case BOOLEAN:
        return in.get() != 0;
      case BYTE:
        return in.get();
      case SHORT:
        return in.getShort();
      case INT:
        return in.getInt();
      case LONG:
        return in.getLong();
      case FLOAT:
        return in.getFloat();
      case DOUBLE:
        return in.getDouble();
      case DECIMAL:
        int scale = in.getInt();
        return new BigDecimal(new BigInteger(readBytes(in)), scale);
      case STRING:
        return new String(readBytes(in), StandardCharsets.UTF_8);
      case BYTES:
        return readBytes(in);
      case DATE:
        return LocalDate.ofEpochDay(in.getLong());
      case TIMESTAMP:
        return LocalDateTime.ofEpochSecond(in.getLong(), in.getInt(), ZoneOffset.UTC);
      case INSTANT:
        return Instant.ofEpochSecond(in.getLong(), in.getInt());
      default:
        throw new CoderException("unknown value tag " + tag + " in an encoded table row");
    }
  }

  private static byte[] readBytes(ByteBuffer in) {
    byte[] b = new byte[in.getInt()];
    in.get(b);
    return b;
  }

  /** The row being encoded: a buffer that grows when a value needs more room than it has left. */
  private static final class Output {
    private ByteBuffer buffer;

    Output(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    /** The buffer, with at least {@code bytes} left. */
    ByteBuffer room(int bytes) {
      if (buffer.remaining() < bytes) {
        ByteBuffer grown =
            ByteBuffer.allocate(Math.max(2 * buffer.capacity(), buffer.position() + bytes));
        grown.put(buffer.array(), buffer.arrayOffset(), buffer.position());
        buffer = grown;
      }
      return buffer;
    }
  }
}
