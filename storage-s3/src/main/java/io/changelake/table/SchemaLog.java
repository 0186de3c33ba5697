package io.changelake.table;

import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.OptionalLong;

/** The schema versions of a table: {@code schema/schema-<id>}, ids 0, 1, 2, .... */
public final class SchemaLog {

  private static final String PREFIX = "schema-";

  private final ObjectStore store;
  private final String folder;

  public SchemaLog(ObjectStore store, TablePath path) {
    this.store = store;
    this.folder = path.schemaFolder();
  }

  public String path(long id) {
    return folder + PREFIX + id;
  }

  /**
   * Reads one schema.
   *
   * @throws io.changelake.store.ObjectNotFoundException if it does not exist
   * @throws IOException naming the file if it is not a schema
   */
  public TableSchema read(long id) throws IOException {
    return TableSchema.fromJson(store.read(path(id)), store.root() + path(id));
  }

  /** The id of the newest schema, or empty if the table does not exist. */
  public OptionalLong latestId() throws IOException {
    long latest = -1;
    for (ObjectInfo info : store.list(folder + PREFIX)) {
      try {
        latest =
            Math.max(
                latest, Long.parseLong(info.path().substring(folder.length() + PREFIX.length())));
      } catch (NumberFormatException notASchema) {
        // Only schema-<n> files are schemas.
      }
    }
    return latest < 0 ? OptionalLong.empty() : OptionalLong.of(latest);
  }

  /**
   * Writes a schema only if its id is free.
   *
   * @return false if a schema with that id exists
   */
  public boolean tryCreate(TableSchema schema) throws IOException {
    return store.createIfAbsent(path(schema.id()), schema.toJson());
  }
}
