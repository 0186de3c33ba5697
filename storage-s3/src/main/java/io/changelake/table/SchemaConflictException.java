package io.changelake.table;

import java.io.IOException;

/**
 * An alter that did not land because another alter wrote the next schema first. Nothing was
 * changed; open the table again and apply the change to its new schema, if it still makes sense.
 */
public final class SchemaConflictException extends IOException {
  private static final long serialVersionUID = 1L;

  SchemaConflictException(String message) {
    super(message);
  }
}
