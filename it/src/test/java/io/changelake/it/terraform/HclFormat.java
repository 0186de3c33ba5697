package io.changelake.it.terraform;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Checks the layout rules of {@code terraform fmt} that the files under terraform/ rely on, for
 * machines without a terraform binary. It is a subset of what terraform fmt does, not a
 * reimplementation:
 *
 * <ul>
 *   <li>LF line ends, no tabs, no trailing whitespace, exactly one newline at the end;
 *   <li>two spaces per nesting level, where (as in hclwrite) a line with more openers than closers
 *       opens one level and a line that starts with a closer is dedented;
 *   <li>in a run of consecutive single-line {@code name = value} lines, the {@code =} signs are in
 *       one column, one space after the longest name, with one space after them; a line whose value
 *       opens a multi-line bracket, a blank line, a comment or a block ends the run.
 * </ul>
 *
 * <p>It does not check spacing inside expressions, nor heredocs (the files have none, and a heredoc
 * is reported so that this checker is not trusted beyond what it reads).
 */
final class HclFormat {
  private HclFormat() {}

  /** The problems found, each as "line N: ..."; empty when the text follows the rules. */
  static List<String> problems(String text) {
    List<String> problems = new ArrayList<>();
    if (text.contains("\r")) {
      problems.add("has CR line ends");
    }
    if (!text.endsWith("\n")) {
      problems.add("does not end with a newline");
    } else if (text.endsWith("\n\n")) {
      problems.add("ends with blank lines");
    }
    String[] lines = text.split("\n", -1);
    int count = text.endsWith("\n") ? lines.length - 1 : lines.length;

    int level = 0;
    Deque<Integer> opened = new ArrayDeque<>();
    List<Integer> chain = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String line = lines[i];
      int n = i + 1;
      if (line.contains("\t")) {
        problems.add("line " + n + ": tab");
      }
      if (!line.isEmpty() && Character.isWhitespace(line.charAt(line.length() - 1))) {
        problems.add("line " + n + ": trailing whitespace");
      }
      String code = codeOf(line);
      if (code.contains("<<")) {
        problems.add("line " + n + ": heredoc, which this checker does not read");
      }
      String trimmed = line.strip();
      if (trimmed.isEmpty()) {
        checkChain(lines, chain, problems);
        continue;
      }

      int openers = 0;
      int closers = 0;
      for (char c : code.toCharArray()) {
        if (c == '{' || c == '[' || c == '(') {
          openers++;
        } else if (c == '}' || c == ']' || c == ')') {
          closers++;
        }
      }
      int net = openers - closers;
      boolean startsWithCloser =
          "}])".indexOf(code.strip().isEmpty() ? ' ' : code.strip().charAt(0)) >= 0;
      int expected;
      if (net < 0) {
        // Closing more than it opens: pop the levels the closers end, then sit at the outer one.
        int toClose = -net;
        while (toClose > 0 && !opened.isEmpty()) {
          int top = opened.pop();
          if (top > toClose) {
            opened.push(top - toClose);
            toClose = 0;
          } else {
            toClose -= top;
            level--;
          }
        }
        expected = level;
      } else if (net > 0) {
        expected = startsWithCloser ? level - 1 : level;
        opened.push(net);
        level++;
      } else {
        expected = startsWithCloser ? level - 1 : level;
      }
      int indent = line.length() - line.stripLeading().length();
      if (indent != 2 * expected) {
        problems.add("line " + n + ": indented " + indent + ", expected " + 2 * expected);
      }

      // Alignment runs: single-line attributes only, in the same block.
      int eq = assignmentIndex(code);
      boolean singleLineAttribute =
          eq > 0 && net == 0 && !trimmed.startsWith("#") && !trimmed.startsWith("//");
      if (singleLineAttribute) {
        chain.add(i);
      } else {
        checkChain(lines, chain, problems);
      }
    }
    checkChain(lines, chain, problems);
    if (level != 0) {
      problems.add("brackets do not balance");
    }
    return problems;
  }

  private static void checkChain(String[] lines, List<Integer> chain, List<String> problems) {
    if (chain.isEmpty()) {
      return;
    }
    int longest = 0;
    for (int i : chain) {
      String code = codeOf(lines[i]);
      int eq = assignmentIndex(code);
      longest = Math.max(longest, code.substring(0, eq).stripTrailing().length());
    }
    int column = longest + 1;
    for (int i : chain) {
      String code = codeOf(lines[i]);
      int eq = assignmentIndex(code);
      if (eq != column) {
        problems.add(
            "line " + (i + 1) + ": '=' at column " + (eq + 1) + ", expected " + (column + 1));
      } else if (code.length() > eq + 1
          && (code.charAt(eq + 1) != ' '
              || (code.length() > eq + 2 && code.charAt(eq + 2) == ' '))) {
        problems.add("line " + (i + 1) + ": expected exactly one space after '='");
      }
    }
    chain.clear();
  }

  /** The index of the attribute's '=' (not ==, !=, <=, >=, =>), or -1. */
  static int assignmentIndex(String code) {
    for (int i = 0; i < code.length(); i++) {
      if (code.charAt(i) != '=') {
        continue;
      }
      char before = i > 0 ? code.charAt(i - 1) : ' ';
      char after = i + 1 < code.length() ? code.charAt(i + 1) : ' ';
      if (after == '=' || after == '>' || "=!<>".indexOf(before) >= 0) {
        if (after == '=') {
          i++;
        }
        continue;
      }
      // Only "name =" at the start of the line is an attribute; '=' elsewhere is inside an
      // expression.
      String name = code.substring(0, i).strip();
      return name.matches("[A-Za-z_][A-Za-z0-9_-]*") ? i : -1;
    }
    return -1;
  }

  /**
   * The line with string contents blanked out (same length) and comments removed, so brackets and
   * '=' inside strings and templates are not counted. Strings do not span lines in these files.
   */
  static String codeOf(String line) {
    StringBuilder out = new StringBuilder(line.length());
    boolean inString = false;
    int templateDepth = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (inString) {
        if (c == '\\') {
          out.append("  ");
          i++;
          if (i >= line.length()) {
            out.setLength(out.length() - 1);
          }
          continue;
        }
        if (c == '$' && i + 1 < line.length() && line.charAt(i + 1) == '{') {
          templateDepth++;
          out.append("  ");
          i++;
          continue;
        }
        if (templateDepth > 0 && c == '}') {
          templateDepth--;
          out.append(' ');
          continue;
        }
        if (templateDepth == 0 && c == '"') {
          inString = false;
          out.append('"');
          continue;
        }
        out.append(' ');
        continue;
      }
      if (c == '"') {
        inString = true;
        out.append('"');
        continue;
      }
      if (c == '#' || (c == '/' && i + 1 < line.length() && line.charAt(i + 1) == '/')) {
        break;
      }
      out.append(c);
    }
    return out.toString();
  }
}
