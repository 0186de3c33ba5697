package io.changelake.beam;

import io.changelake.types.RowKind;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CustomCoder;

/**
 * The coder of {@link KindedRow}: the kind byte, the schema id, each value behind a tag of its Java
 * class, then the source position (a flag byte, then partition and offset).
 *
 * <p>Self-describing on purpose: the coder must exist when the pipeline is built, and the column
 * types of a table that already exists are only known once a worker opens it.
 */
final class KindedRowCoder extends CustomCoder<KindedRow> {
  private static final long serialVersionUID = 1L;

  private static final KindedRowCoder INSTANCE = new KindedRowCoder();

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
    DataOutputStream out = new DataOutputStream(stream);
    out.writeByte(row.kind().toByteValue());
    out.writeLong(row.schemaId());
    out.writeInt(row.values().length);
    for (Object v : row.values()) {
      writeValue(v, out);
    }
    PositionRange source = row.source();
    out.writeBoolean(source != null);
    if (source != null) {
      out.writeUTF(source.partition());
      out.writeLong(source.first());
      out.writeLong(source.last());
    }
    out.flush();
  }

  // A timestamp is written as epoch seconds and the nanos of that second: getNano is that part.
  @SuppressWarnings("JavaLocalDateTimeGetNano")
  private static void writeValue(Object v, DataOutputStream out) throws IOException {
    if (v == null) {
      out.writeByte(NULL);
    } else if (v instanceof Boolean b) {
      out.writeByte(BOOLEAN);
      out.writeBoolean(b);
    } else if (v instanceof Byte b) {
      out.writeByte(BYTE);
      out.writeByte(b);
    } else if (v instanceof Short s) {
      out.writeByte(SHORT);
      out.writeShort(s);
    } else if (v instanceof Integer i) {
      out.writeByte(INT);
      out.writeInt(i);
    } else if (v instanceof Long l) {
      out.writeByte(LONG);
      out.writeLong(l);
    } else if (v instanceof Float f) {
      out.writeByte(FLOAT);
      out.writeFloat(f);
    } else if (v instanceof Double d) {
      out.writeByte(DOUBLE);
      out.writeDouble(d);
    } else if (v instanceof BigDecimal d) {
      out.writeByte(DECIMAL);
      out.writeInt(d.scale());
      writeBytes(d.unscaledValue().toByteArray(), out);
    } else if (v instanceof String s) {
      out.writeByte(STRING);
      writeBytes(s.getBytes(java.nio.charset.StandardCharsets.UTF_8), out);
    } else if (v instanceof byte[] b) {
      out.writeByte(BYTES);
      writeBytes(b, out);
    } else if (v instanceof LocalDate d) {
      out.writeByte(DATE);
      out.writeLong(d.toEpochDay());
    } else if (v instanceof LocalDateTime t) {
      out.writeByte(TIMESTAMP);
      out.writeLong(t.toEpochSecond(ZoneOffset.UTC));
      out.writeInt(t.getNano());
    } else if (v instanceof Instant t) {
      out.writeByte(INSTANT);
      out.writeLong(t.getEpochSecond());
      out.writeInt(t.getNano());
    } else {
      throw new CoderException(
          "a table row holds a " + v.getClass().getName() + ", which no column type takes");
    }
  }

  private static void writeBytes(byte[] b, DataOutputStream out) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  @Override
  public KindedRow decode(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    RowKind kind = RowKind.fromByteValue(in.readByte());
    long schemaId = in.readLong();
    Object[] values = new Object[in.readInt()];
    for (int i = 0; i < values.length; i++) {
      values[i] = readValue(in);
    }
    PositionRange source =
        in.readBoolean() ? new PositionRange(in.readUTF(), in.readLong(), in.readLong()) : null;
    return new KindedRow(kind, values, schemaId, source);
  }

  private static Object readValue(DataInputStream in) throws IOException {
    byte tag = in.readByte();
    switch (tag) {
      case NULL:
        return null;
      case BOOLEAN:
        return in.readBoolean();
      case BYTE:
        return in.readByte();
      case SHORT:
        return in.readShort();
      case INT:
        return in.readInt();
      case LONG:
        return in.readLong();
      case FLOAT:
        return in.readFloat();
      case DOUBLE:
        return in.readDouble();
      case DECIMAL:
        int scale = in.readInt();
        return new BigDecimal(new BigInteger(readBytes(in)), scale);
      case STRING:
        return new String(readBytes(in), java.nio.charset.StandardCharsets.UTF_8);
      case BYTES:
        return readBytes(in);
      case DATE:
        return LocalDate.ofEpochDay(in.readLong());
      case TIMESTAMP:
        return LocalDateTime.ofEpochSecond(in.readLong(), in.readInt(), ZoneOffset.UTC);
      case INSTANT:
        return Instant.ofEpochSecond(in.readLong(), in.readInt());
      default:
        throw new CoderException("unknown value tag " + tag + " in an encoded table row");
    }
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return b;
  }
}
