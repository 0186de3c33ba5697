package io.changelake.mergetree;

import io.changelake.format.ColumnMapping;
import io.changelake.format.DataFileMeta;
import io.changelake.schema.TableSchema;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The schemas a table's data files were written with, each as the {@link ColumnMapping} that reads
 * its files as the current schema's columns. Every file records its schema id ({@link
 * DataFileMeta#schemaId()}); the mapping of each id is worked out once and kept, so every reader of
 * the table (batch, changelog, lookup, compaction) maps an older file the same way, in one place.
 *
 * <p>Thread-safe.
 */
public final class FileSchemas {

  /** Reads a schema of the table by id; the table passes its schema log. */
  @FunctionalInterface
  public interface Source {
    TableSchema read(long schemaId) throws IOException;
  }

  private final TableSchema current;
  private final Source source;
  private final Map<Long, ColumnMapping> mappings = new ConcurrentHashMap<>();

  /**
   * @param current the schema rows are read as, and new files written with
   * @param source the table's other schemas
   */
  public FileSchemas(TableSchema current, Source source) {
    this.current = current;
    this.source = source;
    mappings.put(current.id(), ColumnMapping.identity(current.rowType()));
  }

  /** The schemas of a table that has only {@code current}: a file of another schema is refused. */
  public static FileSchemas only(TableSchema current) {
    return new FileSchemas(
        current,
        id -> {
          throw new IOException(
              "a data file was written with schema "
                  + id
                  + ", but only schema "
                  + current.id()
                  + " is known here");
        });
  }

  /** The schema rows are read as, and new files written with. */
  public TableSchema current() {
    return current;
  }

  /**
   * How {@code file}'s columns read as the current schema's.
   *
   * @throws IOException if the file's schema cannot be read
   */
  public ColumnMapping mapping(DataFileMeta file) throws IOException {
    ColumnMapping known = mappings.get(file.schemaId());
    if (known != null) {
      return known;
    }
    ColumnMapping mapping =
        ColumnMapping.of(source.read(file.schemaId()).rowType(), current.rowType());
    mappings.putIfAbsent(file.schemaId(), mapping);
    return mapping;
  }
}
