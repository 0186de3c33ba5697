package io.changelake.beam;

import io.changelake.table.TablePath;
import java.io.Serializable;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.Row;

/**
 * One table of a many-table write ({@link ChangelakeWrite#toDestinations}): a database and a table
 * name in the write's warehouse, at {@code <warehouse>/<database>.db/<table>/}.
 *
 * @param database the database, checked as {@link TablePath} checks it
 * @param table the table name, checked as {@link TablePath} checks it
 */
public record Destination(String database, String table) implements Serializable {

  /**
   * @throws IllegalArgumentException naming the bad name: no name may be empty, hold a {@code /} or
   *     start with a {@code .}
   */
  public Destination {
    new TablePath(database, table);
  }

  /**
   * The destination named {@code database.table}, split at its first dot.
   *
   * @throws IllegalArgumentException if the text has no dot, or either name is not usable
   */
  public static Destination parse(String qualified) {
    int dot = qualified == null ? -1 : qualified.indexOf('.');
    if (dot <= 0) {
      throw new IllegalArgumentException(
          "destination '" + qualified + "' is not database.table (for example shop.orders)");
    }
    return new Destination(qualified.substring(0, dot), qualified.substring(dot + 1));
  }

  /**
   * Routes each row by its STRING field {@code name}, holding {@code database.table}: the write
   * checks when it is applied that the input has that field.
   */
  public static SerializableFunction<Row, Destination> ofField(String name) {
    return new Field(name);
  }

  /** {@code database.table}. */
  @Override
  public String toString() {
    return database + "." + table;
  }

  /** The router of {@link #ofField}, a type of its own so the write can check the field. */
  record Field(String name) implements SerializableFunction<Row, Destination> {

    @Override
    public Destination apply(Row row) {
      return parse(row.getString(name));
    }

    /** Whether {@code input} has the field as a STRING. */
    boolean fits(Schema input) {
      return input.hasField(name)
          && input.getField(name).getType().getTypeName() == Schema.TypeName.STRING;
    }
  }
}
