package io.changelake.conformance;

import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A conformance script: table options, then writes, commits and compactions against the table
 * {@code orders(order_id BIGINT NOT NULL PRIMARY KEY, store_id BIGINT, amount BIGINT)}, in the
 * format of {@code shared/conformance/README.md}.
 *
 * @param options the {@code OPTION k=v} lines, in order
 * @param actions the actions, in order
 */
public record ConformanceScript(Map<String, String> options, List<Action> actions) {

  /** One line of the script that does something. */
  public sealed interface Action {}

  /** Write a row with a kind. */
  public record Write(int line, RowKind kind, long orderId, Long storeId, Long amount)
      implements Action {}

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
   * Reads a script.
   *
   * @throws IllegalArgumentException naming the file and line of the first line that is not in
   *     the format
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
          case "I", "UB", "UA", "D" -> {
            if (words.length != 4) {
              throw new IllegalArgumentException("a write takes <order_id> <store_id> <amount>");
            }
            actions.add(
                new Write(
                    lineNumber, kindOf(words[0]), Long.parseLong(words[1]), value(words[2]),
                    value(words[3])));
          }
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
    return new ConformanceScript(options, actions);
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
