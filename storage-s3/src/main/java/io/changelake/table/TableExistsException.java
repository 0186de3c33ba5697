package io.changelake.table;

import java.io.IOException;

/** A table is already at the location a create asked for. */
public final class TableExistsException extends IOException {
  private static final long serialVersionUID = 1L;

  public TableExistsException(String message) {
    super(message);
  }
}
