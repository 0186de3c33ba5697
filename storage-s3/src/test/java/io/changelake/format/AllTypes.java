package io.changelake.format;

import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * A table with a column of every type changelake supports, a two-column primary key, and rows with
 * nulls, long and non-ASCII strings, pre-1970 timestamps and every row kind.
 */
final class AllTypes {

  static final List<String> PRIMARY_KEY = List.of("k_id", "k_name");

  static final RowType VALUE_TYPE =
      RowType.of(
          new String[] {
            "k_id",
            "k_name",
            "c_bool",
            "c_tiny",
            "c_small",
            "c_int",
            "c_big",
            "c_float",
            "c_double",
            "c_dec9",
            "c_dec18",
            "c_dec38",
            "c_char",
            "c_varchar",
            "c_string",
            "c_binary",
            "c_varbinary",
            "c_bytes",
            "c_date",
            "c_ts3",
            "c_ts6",
            "c_ts9",
            "c_ltz3",
            "c_ltz6",
            "c_ltz9",
            "c_int_required"
          },
          new DataType[] {
            DataType.bigint().notNull(),
            DataType.string().notNull(),
            DataType.booleanType(),
            DataType.tinyint(),
            DataType.smallint(),
            DataType.intType(),
            DataType.bigint(),
            DataType.floatType(),
            DataType.doubleType(),
            DataType.decimal(9, 2),
            DataType.decimal(18, 4),
            DataType.decimal(38, 10),
            DataType.charType(5),
            DataType.varchar(40),
            DataType.string(),
            DataType.binary(4),
            DataType.varbinary(10),
            DataType.bytes(),
            DataType.date(),
            DataType.timestamp(3),
            DataType.timestamp(6),
            DataType.timestamp(9),
            DataType.timestampLtz(3),
            DataType.timestampLtz(6),
            DataType.timestampLtz(9),
            DataType.intType().notNull()
          });

  static final RowType KEY_TYPE = VALUE_TYPE.project(new int[] {0, 1});

  private AllTypes() {}

  /**
   * {@code n} rows with distinct keys, sorted by key as a file holds them, with sequence numbers 0
   * to n-1 in that order.
   */
  static List<KeyValue> sortedRows(int n, long seed) {
    Random random = new Random(seed);
    List<KeyValue> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Object[] value = new Object[VALUE_TYPE.size()];
      value[0] = (long) ((i * 7919L) % n) - n / 2;
      value[1] = keyName(i);
      for (int c = 2; c < value.length; c++) {
        boolean nullable = VALUE_TYPE.type(c).nullable();
        value[c] = nullable && random.nextInt(5) == 0 ? null : randomValue(c, random);
      }
      RowKind kind =
          switch (i % 10) {
            case 3 -> RowKind.DELETE;
            case 5 -> RowKind.UPDATE_AFTER;
            case 7 -> RowKind.UPDATE_BEFORE;
            default -> RowKind.INSERT;
          };
      rows.add(new KeyValue(new Object[] {value[0], value[1]}, 0, kind, value));
    }
    rows.sort(KEY_ORDER);
    // Paimon numbers rows in the order it is given them: these sorted ones.
    List<KeyValue> numbered = new ArrayList<>();
    for (KeyValue kv : rows) {
      numbered.add(new KeyValue(kv.key(), numbered.size(), kv.kind(), kv.value()));
    }
    return numbered;
  }

  /** Paimon's key order for (BIGINT, STRING): numbers, then strings by their UTF-8 bytes. */
  static final Comparator<KeyValue> KEY_ORDER =
      Comparator.comparing((KeyValue kv) -> (Long) kv.key()[0])
          .thenComparing(
              kv -> ((String) kv.key()[1]).getBytes(java.nio.charset.StandardCharsets.UTF_8),
              java.util.Arrays::compareUnsigned);

  private static String keyName(int i) {
    // Some keys longer than the 128 code points Paimon keeps of key bounds.
    return i % 13 == 0 ? "k".repeat(130) + i : "key-" + i;
  }

  private static Object randomValue(int column, Random r) {
    String name = VALUE_TYPE.field(column).name();
    switch (name) {
      case "c_bool":
        return r.nextBoolean();
      case "c_tiny":
        return (byte) r.nextInt();
      case "c_small":
        return (short) r.nextInt();
      case "c_int":
      case "c_int_required":
        return r.nextInt();
      case "c_big":
        return r.nextLong();
      case "c_float":
        return r.nextFloat() * 1000 - 500;
      case "c_double":
        return r.nextDouble() * 1e6 - 5e5;
      case "c_dec9":
        return BigDecimal.valueOf(r.nextInt(999_999_999) - 499_999_999, 2);
      case "c_dec18":
        return BigDecimal.valueOf(r.nextLong() % 999_999_999_999_999_999L, 4);
      case "c_dec38":
        return new BigDecimal(new BigInteger(120, r).subtract(BigInteger.ONE.shiftLeft(119)), 10);
      case "c_char":
        return "c" + r.nextInt(9999);
      case "c_varchar":
        // Past the 16 code points of value stats, with a non-ASCII code point near the cut.
        return "v-" + r.nextInt(1000) + "-ünïcödé-long-enough-to-truncate";
      case "c_string":
        return r.nextBoolean() ? "s" + r.nextInt(100) : "😀 string " + r.nextInt(1000);
      case "c_binary":
        return bytes(r, 4);
      case "c_varbinary":
        return bytes(r, 1 + r.nextInt(10));
      case "c_bytes":
        return bytes(r, r.nextInt(30));
      case "c_date":
        return LocalDate.ofEpochDay(r.nextInt(40_000) - 10_000);
      case "c_ts3":
        return dateTime(r).withNano(r.nextInt(1000) * 1_000_000);
      case "c_ts6":
        return dateTime(r).withNano(r.nextInt(1_000_000) * 1_000);
      case "c_ts9":
        return dateTime(r).withNano(r.nextInt(1_000_000_000));
      case "c_ltz3":
        return dateTime(r).withNano(r.nextInt(1000) * 1_000_000).toInstant(ZoneOffset.UTC);
      case "c_ltz6":
        return dateTime(r).withNano(r.nextInt(1_000_000) * 1_000).toInstant(ZoneOffset.UTC);
      case "c_ltz9":
        return dateTime(r).withNano(r.nextInt(1_000_000_000)).toInstant(ZoneOffset.UTC);
      default:
        throw new IllegalArgumentException(name);
    }
  }

  private static byte[] bytes(Random r, int length) {
    byte[] b = new byte[length];
    r.nextBytes(b);
    return b;
  }

  /** Seconds from 1950 to 2040: pre-1970 values make Paimon's INT96 nanosecond of day negative. */
  private static LocalDateTime dateTime(Random r) {
    long seconds = -631_152_000L + (long) (r.nextDouble() * 2_840_000_000L);
    return LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
  }
}
