package io.changelake.conformance;

import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A conformance script: table options, then writes, commits and compactions against the table
 * {@code orders(order_id BIGINT NOT NULL PRIMARY KEY, store_id BIGINT, amount BIGINT)}, in the
 * format of {@code shared/conformance/README.md}.
 *
 * <p>changelake's extension of that format, for shapes the shared cases do not use: {@code COLUMN
 * <name> <BIGINT|STRING|BOOLEAN> [KEY|PARTITION]} lines (before the first action, like {@code
 * OPTION}) add columns after {@code amount}, in order, and each write then gives one more value per
 * column ({@code -} for null, a STRING as one word, a BOOLEAN as {@code true} or {@code false}). A
 * {@code KEY} column is NOT NULL and joins the primary key, which the data files then key by:
 * {@code (order_id, <key columns>)}. A {@code PARTITION} column is NOT NULL, partitions the table
 * and joins the primary key after them, so the same order_id in two partitions is two rows (the
 * files of a partition key by the other columns). A script without COLUMN lines is in the shared
 * format.
 *
 * @param options the {@code OPTION k=v} lines, in order
 * @param columns the {@code COLUMN} lines, in order
 * @param actions the actions, in order
 */
public record ConformanceScript(
    Map<String, String> options, List<Column> columns, List<Action> actions) {

  /** One line of the script that does something. */
  public sealed interface Action {}

  /**
   * Write a row with a kind.
   *
   * @param values order_id, store_id, amount, then one value per {@link Column}
   */
  public record Write(int line, RowKind kind, List<Object> values) implements Action {
    /** The row, in column order. */
    public Object[] row() {
      return values.toArray();
    }
  }

  /** Flush and commit, or compact then commit. */
  public record Commit(int line, Kind kind) implements Action {
    /** Which commit. */
    public enum Kind {
      COMMIT,
      COMPACT,
      COMPACT_FULL
    }
  }

  /**
   * A column after {@code amount}.
   *
   * @param type BIGINT, STRING or BOOLEAN
   * @param role whether the column is a value, in the primary key, or a partition key
   */
  public record Column(String name, String type, Role role) {

    /** What a column is to the table. */
    public enum Role {
      /** A value column, nullable. */
      VALUE,
      /** A primary-key column: NOT NULL. */
      KEY,
      /** A partition key: NOT NULL, and in the primary key too. */
      PARTITION
    }

    private static final List<String> TYPES = List.of("BIGINT", "STRING", "BOOLEAN");

    /**
     * @throws IllegalArgumentException naming the types a column may have
     */
    public Column {
      if (!TYPES.contains(type)) {
        throw new IllegalArgumentException(
            "column type '" + type + "' is not one of " + String.join(", ", TYPES));
      }
    }

    DataType dataType() {
      DataType dataType =
          switch (type) {
            case "BIGINT" -> DataType.bigint();
            case "STRING" -> DataType.string();
            default -> DataType.booleanType();
          };
      return role == Role.VALUE ? dataType : dataType.notNull();
    }

    Object value(String word) {
      if (word.equals("-")) {
        if (role != Role.VALUE) {
          throw new IllegalArgumentException(
              role.name().toLowerCase(Locale.ROOT) + " column '" + name + "' cannot be null");
        }
        return null;
      }
      return switch (type) {
        case "BIGINT" -> Long.valueOf(word);
        case "STRING" -> word;
        default -> {
          if (!word.equals("true") && !word.equals("false")) {
            throw new IllegalArgumentException(
                "column '" + name + "' is BOOLEAN: write true, false or -");
          }
          yield Boolean.valueOf(word);
        }
      };
    }
  }

  /** The table's columns: {@code order_id, store_id, amount}, then the script's. */
  public RowType rowType() {
    RowType orders = ConformanceRun.ORDERS;
    List<String> names = new ArrayList<>(orders.names());
    List<DataType> types = new ArrayList<>();
    for (int i = 0; i < orders.size(); i++) {
      types.add(orders.type(i));
    }
    for (Column c : columns) {
      names.add(c.name());
      types.add(c.dataType());
    }
    return RowType.of(names.toArray(String[]::new), types.toArray(DataType[]::new));
  }

  /** The partition columns, in order; empty for an unpartitioned table. */
  public List<String> partitionKeys() {
    return columns(Column.Role.PARTITION);
  }

  /** {@code order_id}, then the KEY columns, then the partition columns. */
  public List<String> primaryKeys() {
    List<String> keys = new ArrayList<>(List.of("order_id"));
    keys.addAll(columns(Column.Role.KEY));
    keys.addAll(partitionKeys());
    return keys;
  }

  private List<String> columns(Column.Role role) {
    return columns.stream().filter(c -> c.role() == role).map(Column::name).toList();
  }

  /**
   * Reads a script.
   *
   * @throws IllegalArgumentException naming the file and line of the first line that is not in the
   *     format
   */
  public static ConformanceScript read(Path file) throws IOException {
    return parse(file.toString(), Files.readAllLines(file));
  }

  /**
   * Parses a script's lines.
   *
   * @param source where the lines come from, for messages
   * @throws IllegalArgumentException naming the source and line of the first line that is not in
   *     the format
   */
  public static ConformanceScript parse(String source, List<String> lines) {
    Map<String, String> options = new LinkedHashMap<>();
    List<Column> columns = new ArrayList<>();
    List<Action> actions = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      int lineNumber = i + 1;
      String line = lines.get(i);
      int comment = line.indexOf('#');
      String text = (comment >= 0 ? line.substring(0, comment) : line).trim();
      if (text.isEmpty()) {
        continue;
      }
      String[] words = text.split("\\s+", -1);
      try {
        switch (words[0]) {
          case "OPTION" -> {
            if (!actions.isEmpty()) {
              throw new IllegalArgumentException("OPTION must come before the first action");
            }
            String[] kv = text.substring("OPTION".length()).trim().split("=", 2);
            if (kv.length != 2) {
              throw new IllegalArgumentException("OPTION takes k=v");
            }
            options.put(kv[0].trim(), kv[1].trim());
          }
          case "COLUMN" -> {
            if (!actions.isEmpty()) {
              throw new IllegalArgumentException("COLUMN must come before the first action");
            }
            boolean roleGiven =
                words.length == 4 && (words[3].equals("KEY") || words[3].equals("PARTITION"));
            if (words.length != 3 && !roleGiven) {
              throw new IllegalArgumentException("COLUMN takes <name> <type> [KEY|PARTITION]");
            }
            Column.Role role = roleGiven ? Column.Role.valueOf(words[3]) : Column.Role.VALUE;
            columns.add(new Column(words[1], words[2], role));
          }
          case "I", "UB", "UA", "D" -> actions.add(write(lineNumber, words, columns));
          case "COMMIT", "COMPACT", "COMPACT_FULL" ->
              actions.add(new Commit(lineNumber, Commit.Kind.valueOf(words[0])));
          default -> throw new IllegalArgumentException("unknown action '" + words[0] + "'");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            source + " line " + lineNumber + ": '" + line + "' has a value that is not a number");
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            source + " line " + lineNumber + ": '" + line + "': " + e.getMessage(), e);
      }
    }
    return new ConformanceScript(options, List.copyOf(columns), actions);
  }

  private static Write write(int lineNumber, String[] words, List<Column> columns) {
    if (words.length != 4 + columns.size()) {
      throw new IllegalArgumentException(
          "a write takes <order_id> <store_id> <amount>"
              + columns.stream().map(c -> " <" + c.name() + ">").reduce("", String::concat));
    }
    Object[] values = new Object[3 + columns.size()];
    values[0] = Long.parseLong(words[1]);
    values[1] = value(words[2]);
    values[2] = value(words[3]);
    for (int c = 0; c < columns.size(); c++) {
      values[3 + c] = columns.get(c).value(words[4 + c]);
    }
    return new Write(
        lineNumber, kindOf(words[0]), Collections.unmodifiableList(Arrays.asList(values)));
  }

  private static RowKind kindOf(String word) {
    return switch (word) {
      case "I" -> RowKind.INSERT;
      case "UB" -> RowKind.UPDATE_BEFORE;
      case "UA" -> RowKind.UPDATE_AFTER;
      default -> RowKind.DELETE;
    };
  }

  private static Long value(String word) {
    return word.equals("-") ? null : Long.valueOf(word);
  }
}
