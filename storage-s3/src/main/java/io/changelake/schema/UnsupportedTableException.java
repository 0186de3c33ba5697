package io.changelake.schema;

/**
 * A table whose options ask for behaviour changelake does not implement (deletion vectors, dynamic
 * bucket, a format other than parquet, an option changelake does not know, ...): changelake refuses
 * to write, read, expire or clean it rather than ignore the option. The message names the option
 * and the fix. See {@link TableOptions#checkSupported}.
 */
public final class UnsupportedTableException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public UnsupportedTableException(String message, Throwable cause) {
    super(message, cause);
  }
}
