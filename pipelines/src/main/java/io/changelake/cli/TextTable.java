package io.changelake.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A table of text with aligned columns, for listings a person reads: numbers align right, text
 * left. Every command prints its listings through it so they look alike.
 */
final class TextTable {

  private final List<Object[]> rows = new ArrayList<>();
  private final int columns;

  TextTable(String... header) {
    this.columns = header.length;
    rows.add(header);
  }

  /** Adds a row; a {@link Number} cell aligns right. */
  TextTable add(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalStateException(
          "a row of " + cells.length + " cells in a table of " + columns + " columns");
    }
    rows.add(cells);
    return this;
  }

  /** Whether only the header is there. */
  boolean isEmpty() {
    return rows.size() == 1;
  }

  /** Prints the header and rows, each line starting with {@code indent}. */
  void print(PrintStream out, String indent) {
    int[] widths = new int[columns];
    for (Object[] row : rows) {
      for (int c = 0; c < columns; c++) {
        widths[c] = Math.max(widths[c], String.valueOf(row[c]).length());
      }
    }
    for (Object[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int c = 0; c < columns; c++) {
        String text = String.valueOf(row[c]);
        String pad = " ".repeat(widths[c] - text.length());
        line.append(row[c] instanceof Number ? pad + text : text + pad);
        if (c < columns - 1) {
          line.append("  ");
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
