package io.changelake.table;

import java.io.FileNotFoundException;

/** There is no table at the location asked for. */
public final class TableNotFoundException extends FileNotFoundException {
  private static final long serialVersionUID = 1L;

  public TableNotFoundException(String message) {
    super(message);
  }
}
