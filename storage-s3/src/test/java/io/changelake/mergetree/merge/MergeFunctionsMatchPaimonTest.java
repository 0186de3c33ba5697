package io.changelake.mergetree.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.PaimonRows;
import io.changelake.mergetree.MergeException;
import io.changelake.mergetree.MergeFunction;
import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.mergetree.compact.DeduplicateMergeFunction;
import org.apache.paimon.mergetree.compact.FirstRowMergeFunction;
import org.apache.paimon.mergetree.compact.PartialUpdateMergeFunction;
import org.apache.paimon.mergetree.compact.aggregate.AggregateMergeFunction;
import org.apache.paimon.options.Options;
import org.apache.paimon.utils.UserDefinedSeqComparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Differential tests: random versions of a key, with nulls and retractions, merged by our engines
 * and by Paimon 1.3.1's own merge function classes from paimon-bundle, built through their
 * factories from the same options. The results must agree on kind, sequence number and row, and
 * where Paimon refuses a version ours must refuse it with a {@link MergeException}.
 */
class MergeFunctionsMatchPaimonTest {

  private static final int SEQUENCES = 3000;

  private final Random random = new Random(20250113L);
  private int merged;
  private int refused;

  /** Guards against a test that passes because both sides refuse: most sequences must merge. */
  @AfterEach
  void mostSequencesMerged() {
    assertTrue(refused <= merged * 0.6, refused + " of " + merged + " sequences refused");
  }

  /** Outcome of a merge: the result, or that it was refused. */
  private record Outcome(boolean refused, String kind, long sequenceNumber, Object[] row) {
    static final Outcome REFUSED = new Outcome(true, null, 0, null);
    static final Outcome NOTHING = new Outcome(false, null, 0, null);
  }

  @Test
  void deduplicateMatchesPaimon() {
    for (int config = 0; config < 20; config++) {
      Map<String, String> options = new HashMap<>();
      options.put("merge-engine", "deduplicate");
      if (random.nextBoolean()) {
        options.put(random.nextBoolean() ? "ignore-delete" : "deduplicate.ignore-delete", "true");
      }
      compare(simpleTable(options), SEQUENCES / 20, 0.3);
    }
  }

  @Test
  void firstRowMatchesPaimon() {
    for (int config = 0; config < 20; config++) {
      Map<String, String> options = new HashMap<>();
      options.put("merge-engine", "first-row");
      if (random.nextBoolean()) {
        options.put(random.nextBoolean() ? "ignore-delete" : "first-row.ignore-delete", "true");
      }
      compare(simpleTable(options), SEQUENCES / 20, 0.2);
    }
  }

  @Test
  void partialUpdateMatchesPaimon() {
    for (int config = 0; config < 30; config++) {
      Map<String, String> options = new HashMap<>();
      options.put("merge-engine", "partial-update");
      switch (config % 3) {
        case 0 -> options.put("partial-update.ignore-delete", "true");
        case 1 -> options.put("partial-update.remove-record-on-delete", "true");
        default -> {} // retractions must be refused by both
      }
      compare(simpleTable(options), SEQUENCES / 30, 0.25);
    }
  }

  @Test
  void partialUpdateWithSequenceGroupsMatchesPaimon() {
    String[] names = {"k", "g", "a", "b", "s1", "s2", "c", "d", "e"};
    // The aggregated column c takes every type of its own unboxed slot, and others, so that a
    // version behind its group (the reversed fold) is compared for each.
    DataType[] aggregatedTypes = {
      DataType.bigint(), DataType.intType(), DataType.doubleType(), DataType.floatType(),
      DataType.tinyint(), DataType.booleanType(), DataType.decimal(5, 2), DataType.string()
    };
    for (int config = 0; config < 48; config++) {
      DataType aggregated = aggregatedTypes[config % aggregatedTypes.length];
      DataType[] types = {
        DataType.bigint(),
        DataType.intType(),
        DataType.intType(),
        DataType.string(),
        DataType.intType(),
        DataType.intType(),
        aggregated,
        DataType.string(),
        DataType.intType()
      };
      List<String> functions = functionsFor(aggregated.root());
      Map<String, String> options = new HashMap<>();
      options.put("merge-engine", "partial-update");
      options.put("fields.g.sequence-group", "a,b");
      options.put("fields.s1,s2.sequence-group", "c,d");
      options.put("fields.c.aggregate-function", functions.get(random.nextInt(functions.size())));
      if (random.nextInt(3) == 0) {
        options.put("fields.c.ignore-retract", "true");
      }
      if (random.nextInt(3) == 0) {
        options.put(
            "partial-update.remove-record-on-sequence-group", random.nextBoolean() ? "g" : "s2");
      }
      compare(Versions.table(names, types, options), SEQUENCES / 48, 0.3);
    }
  }

  @Test
  void aggregationMatchesPaimonForEveryFunctionAndType() {
    String[] names = {
      "k", "t", "s", "i", "l", "f", "d", "dec5", "dec20", "dec38", "str", "chr", "vc", "bin",
      "bool", "day", "ts", "ltz", "nn"
    };
    DataType[] types = {
      DataType.bigint(), DataType.tinyint(), DataType.smallint(), DataType.intType(),
      DataType.bigint(), DataType.floatType(), DataType.doubleType(), DataType.decimal(5, 2),
      DataType.decimal(20, 2), DataType.decimal(38, 4), DataType.string(), DataType.charType(2),
      DataType.varchar(8), DataType.bytes(), DataType.booleanType(), DataType.date(),
      DataType.timestamp(6), DataType.timestampLtz(3), DataType.intType().notNull()
    };
    for (int config = 0; config < 200; config++) {
      // Every other table makes each column take retractions (a retracting function, or
      // ignore-retract), so that retractions are compared, not just refused.
      boolean retractable = config % 2 == 0;
      Map<String, String> options = new HashMap<>();
      options.put("merge-engine", "aggregation");
      boolean removeOnDelete = random.nextInt(4) == 0;
      if (removeOnDelete) {
        options.put("aggregation.remove-record-on-delete", "true");
      }
      if (random.nextInt(5) == 0) {
        options.put("sequence.field", random.nextBoolean() ? "i" : "ts");
      }
      if (random.nextInt(4) == 0) {
        options.put("fields.default-aggregate-function", "last_value");
      }
      for (int c = 1; c < names.length; c++) {
        // Columns left without a function take the default (last_value or last_non_null_value).
        if (names[c].equals(options.get("sequence.field")) || random.nextInt(5) == 0) {
          continue;
        }
        List<String> functions = functionsFor(types[c].root());
        options.put(
            "fields." + names[c] + ".aggregate-function",
            functions.get(random.nextInt(functions.size())));
        boolean retracts =
            RETRACTING.contains(options.get("fields." + names[c] + ".aggregate-function"));
        if (!removeOnDelete && (retractable ? !retracts : random.nextInt(3) == 0)) {
          options.put("fields." + names[c] + ".ignore-retract", "true");
        } else if (removeOnDelete && retractable && !retracts) {
          options.put("fields." + names[c] + ".aggregate-function", "last_value");
        }
        if (random.nextInt(4) == 0) {
          options.put("fields." + names[c] + ".list-agg-delimiter", "|");
        }
      }
      compare(Versions.table(names, types, options), SEQUENCES / 100, retractable ? 0.3 : 0.05);
    }
  }

  private static final List<String> RETRACTING =
      List.of("sum", "product", "last_value", "last_non_null_value");

  @Test
  void sequenceOrderMatchesPaimonsUserDefinedSeqComparator() {
    assertSequenceOrderMatchesPaimon(
        new DataType[] {DataType.string(), DataType.intType(), DataType.bytes()});
    // The columns compared through a view's unboxed getters.
    assertSequenceOrderMatchesPaimon(
        new DataType[] {DataType.bigint(), DataType.doubleType(), DataType.floatType()});
    assertSequenceOrderMatchesPaimon(new DataType[] {DataType.booleanType(), DataType.bigint()});
  }

  /** Our order of random versions, by sequence fields of these types, is Paimon's. */
  private void assertSequenceOrderMatchesPaimon(DataType[] sequenceTypes) {
    String[] names = new String[sequenceTypes.length + 1];
    DataType[] types = new DataType[sequenceTypes.length + 1];
    names[0] = "k";
    types[0] = DataType.bigint();
    List<String> sequenceFields = new ArrayList<>();
    for (int i = 0; i < sequenceTypes.length; i++) {
      names[i + 1] = "s" + i;
      types[i + 1] = sequenceTypes[i];
      sequenceFields.add(names[i + 1]);
    }
    TableSchema table =
        Versions.table(names, types, Map.of("sequence.field", String.join(",", sequenceFields)));
    RowType rowType = table.rowType();
    Comparator<ChangeRow> ours = MergeFunctions.sequenceOrder(table);
    UserDefinedSeqComparator paimon =
        UserDefinedSeqComparator.create(PaimonTypes.toPaimon(rowType), sequenceFields, true);
    PaimonRows rows = new PaimonRows(rowType);
    for (int n = 0; n < SEQUENCES; n++) {
      KeyValue x = randomVersion(rowType, n % 3, 0);
      KeyValue y = randomVersion(rowType, n % 5, 0);
      int expected = paimon.compare(rows.toGenericRow(x.value()), rows.toGenericRow(y.value()));
      if (expected == 0) {
        expected = Long.compare(x.sequenceNumber(), y.sequenceNumber());
      }
      assertEquals(
          Integer.signum(expected),
          Integer.signum(ours.compare(x, y)),
          Versions.show(x) + " vs " + Versions.show(y));
    }
  }

  private static List<String> functionsFor(TypeRoot root) {
    List<String> functions =
        new ArrayList<>(
            List.of("last_value", "last_non_null_value", "first_value", "first_non_null_value"));
    switch (root) {
      case TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL ->
          functions.addAll(List.of("sum", "product", "min", "max", "sum", "product"));
      case VARCHAR -> functions.addAll(List.of("listagg", "min", "max", "listagg"));
      case BOOLEAN -> functions.addAll(List.of("bool_and", "bool_or"));
      default -> functions.addAll(List.of("min", "max"));
    }
    return functions;
  }

  private static TableSchema simpleTable(Map<String, String> options) {
    return Versions.table(
        new String[] {"k", "a", "b", "c"},
        new DataType[] {
          DataType.bigint(), DataType.intType(), DataType.string(), DataType.decimal(10, 2)
        },
        options);
  }

  /** Merges {@code count} random sequences of versions with both engines and compares. */
  private void compare(TableSchema table, int count, double retractShare) {
    MergeFunction ours = MergeFunctions.create(table);
    org.apache.paimon.mergetree.compact.MergeFunction<org.apache.paimon.KeyValue> paimon =
        paimon(table);
    Comparator<ChangeRow> order = MergeFunctions.sequenceOrder(table);
    // Nullable for conversion only: Paimon's aggregates may leave null in a NOT NULL column.
    PaimonRows rows =
        new PaimonRows(
            new RowType(
                table.rowType().fields().stream()
                    .map(f -> new DataField(f.id(), f.name(), f.type().withNullable(true)))
                    .toList()));
    for (int n = 0; n < count; n++) {
      int length = 1 + random.nextInt(random.nextInt(4) == 0 ? 12 : 5);
      KeyValue[] versions = new KeyValue[length];
      for (int v = 0; v < length; v++) {
        versions[v] = randomVersion(table.rowType(), v, retractShare);
      }
      if (order != null) {
        Arrays.sort(versions, order);
      }
      Outcome expected = mergeWithPaimon(paimon, rows, versions);
      Outcome actual = mergeWithOurs(ours, versions);
      merged++;
      if (expected.refused()) {
        refused++;
      }
      String context =
          table.options()
              + "\n"
              + String.join("\n", Arrays.stream(versions).map(Versions::show).toList());
      assertEquals(expected.refused(), actual.refused(), "refused?\n" + context);
      assertEquals(expected.kind(), actual.kind(), context);
      assertEquals(expected.sequenceNumber(), actual.sequenceNumber(), context);
      assertTrue(
          Arrays.deepEquals(expected.row(), actual.row()),
          "Paimon "
              + Arrays.deepToString(expected.row())
              + " ours "
              + Arrays.deepToString(actual.row())
              + "\n"
              + context);
    }
  }

  private static Outcome mergeWithOurs(MergeFunction ours, KeyValue[] versions) {
    KeyValue result;
    try {
      result = Versions.merge(ours, versions);
    } catch (MergeException e) {
      return Outcome.REFUSED;
    }
    return result == null
        ? Outcome.NOTHING
        : new Outcome(
            false, result.kind().shortString(), result.sequenceNumber(), result.value().clone());
  }

  private static Outcome mergeWithPaimon(
      org.apache.paimon.mergetree.compact.MergeFunction<org.apache.paimon.KeyValue> paimon,
      PaimonRows rows,
      KeyValue[] versions) {
    org.apache.paimon.KeyValue result;
    try {
      paimon.reset();
      for (KeyValue kv : versions) {
        paimon.add(
            new org.apache.paimon.KeyValue()
                .replace(
                    GenericRow.of(kv.key()),
                    kv.sequenceNumber(),
                    org.apache.paimon.types.RowKind.fromByteValue(kv.kind().toByteValue()),
                    rows.toGenericRow(kv.value()))
                .setLevel(0));
      }
      result = paimon.getResult();
    } catch (IllegalArgumentException | UnsupportedOperationException | ArithmeticException e) {
      return Outcome.REFUSED;
    }
    return result == null
        ? Outcome.NOTHING
        : new Outcome(
            false,
            result.valueKind().shortString(),
            result.sequenceNumber(),
            rows.toJava(result.value()));
  }

  private static org.apache.paimon.mergetree.compact.MergeFunction<org.apache.paimon.KeyValue>
      paimon(TableSchema table) {
    Options options = Options.fromMap(table.options().asMap());
    org.apache.paimon.types.RowType rowType = PaimonTypes.toPaimon(table.rowType());
    return switch (table.options().mergeEngine()) {
      case DEDUPLICATE -> DeduplicateMergeFunction.factory(options).create();
      case FIRST_ROW -> FirstRowMergeFunction.factory(options).create();
      case PARTIAL_UPDATE ->
          PartialUpdateMergeFunction.factory(options, rowType, table.primaryKeys()).create();
      case AGGREGATION ->
          AggregateMergeFunction.factory(
                  options, rowType.getFieldNames(), rowType.getFieldTypes(), table.primaryKeys())
              .create();
    };
  }

  /** A version of key 1 with random values, a fifth of them null, retracting at that share. */
  private KeyValue randomVersion(RowType rowType, long sequenceNumber, double retractShare) {
    Object[] value = new Object[rowType.size()];
    value[0] = 1L;
    for (int c = 1; c < value.length; c++) {
      DataType type = rowType.type(c);
      value[c] = type.nullable() && random.nextInt(5) == 0 ? null : randomValue(type);
    }
    RowKind kind;
    if (random.nextDouble() < retractShare) {
      kind = random.nextBoolean() ? RowKind.UPDATE_BEFORE : RowKind.DELETE;
    } else {
      kind = random.nextBoolean() ? RowKind.INSERT : RowKind.UPDATE_AFTER;
    }
    return Versions.version(sequenceNumber, kind, value);
  }

  private static final String[] TEXT = {"a", "b", "ab", "é", "\uFFFF", "\uD83D\uDE00", "zz", ""};

  private Object randomValue(DataType type) {
    return switch (type.root()) {
      case BOOLEAN -> random.nextBoolean();
      case TINYINT -> (byte) random.nextInt();
      case SMALLINT -> (short) (random.nextBoolean() ? random.nextInt(7) - 3 : random.nextInt());
      case INT -> random.nextBoolean() ? random.nextInt(7) - 3 : random.nextInt();
      case BIGINT -> random.nextBoolean() ? (long) random.nextInt(7) - 3 : random.nextLong();
      case FLOAT ->
          random.nextBoolean() ? (float) (random.nextInt(7) - 3) : random.nextFloat() * 100;
      case DOUBLE ->
          random.nextBoolean() ? (double) (random.nextInt(7) - 3) : random.nextGaussian();
      case DECIMAL -> randomDecimal(type.precision(), type.scale());
      case CHAR -> TEXT[random.nextInt(3)] + "xy".substring(0, type.length() - 1);
      case VARCHAR -> TEXT[random.nextInt(TEXT.length)];
      case BINARY, VARBINARY -> {
        byte[] bytes = new byte[random.nextInt(3)];
        random.nextBytes(bytes);
        yield bytes;
      }
      case DATE -> LocalDate.ofEpochDay(random.nextInt(5));
      case TIMESTAMP -> LocalDateTime.of(2025, 1, 1, 0, 0).plusNanos(random.nextInt(3) * 1000L);
      case TIMESTAMP_LTZ -> Instant.ofEpochMilli(random.nextInt(3));
    };
  }

  /** Small values (to divide exactly), zero, and values at the edge of the precision. */
  private BigDecimal randomDecimal(int precision, int scale) {
    BigInteger unscaled =
        switch (random.nextInt(4)) {
          case 0 -> BigInteger.valueOf(random.nextInt(9) - 4).multiply(BigInteger.TEN.pow(scale));
          case 1 -> BigInteger.ZERO;
          case 2 -> BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
          default -> new BigInteger(precision * 3, random).mod(BigInteger.TEN.pow(precision));
        };
    return new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), scale);
  }
}
