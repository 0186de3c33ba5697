package io.changelake.format;

import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads and writes index manifests ({@code manifest/index-manifest-<uuid>-<n>}): Avro files of
 * {@link IndexManifestEntry} with Paimon 1.3.1's record schema (copied from a file Paimon wrote),
 * zstd, as a snapshot's {@code indexManifest} names them.
 */
public final class IndexManifestFile {

  /** The {@code _VERSION} Paimon 1.3.1 writes in every entry. */
  static final int VERSION = 1;

  /** The schema written, parsed on the first write: a reader decodes by each file's own. */
  private static final class Schemas {
    static final Schema ENTRY = AvroContainer.schema("index-manifest-entry.avsc");
  }

  private final ObjectStore store;
  private final String folder;

  /**
   * @param store the store holding the table
   * @param folder the table's manifest folder, ending in {@code /}
   */
  public IndexManifestFile(ObjectStore store, String folder) {
    this.store = store;
    this.folder = folder;
  }

  /** Writes an index manifest and returns its size in bytes. */
  public long write(String fileName, List<IndexManifestEntry> entries) throws IOException {
    List<GenericRecord> records = new ArrayList<>(entries.size());
    for (IndexManifestEntry e : entries) {
      GenericRecord record = AvroContainer.record(Schemas.ENTRY);
      record.put("_VERSION", VERSION);
      record.put("_KIND", e.kind().value());
      record.put("_PARTITION", AvroContainer.bytes(e.partition()));
      record.put("_BUCKET", e.bucket());
      record.put("_INDEX_TYPE", e.file().indexType());
      record.put("_FILE_NAME", e.file().fileName());
      record.put("_FILE_SIZE", e.file().fileSize());
      record.put("_ROW_COUNT", e.file().rowCount());
      record.put("_DELETIONS_VECTORS_RANGES", null);
      record.put("_EXTERNAL_PATH", null);
      records.add(record);
    }
    byte[] bytes = AvroContainer.write(Schemas.ENTRY, records);
    store.write(folder + fileName, bytes);
    return bytes.length;
  }

  /**
   * The entries of an index manifest, in order.
   *
   * @throws io.changelake.store.ObjectNotFoundException if it is missing
   * @throws IOException naming the file if it cannot be parsed
   */
  public List<IndexManifestEntry> read(String fileName) throws IOException {
    byte[] bytes = store.read(folder + fileName);
    return AvroContainer.read(
        bytes,
        "index manifest " + folder + fileName,
        r ->
            new IndexManifestEntry(
                FileKind.fromValue(r.intValue("_KIND")),
                new SerializedRow(r.bytes("_PARTITION")),
                r.intValue("_BUCKET"),
                new IndexFileMeta(
                    r.string("_INDEX_TYPE"),
                    r.string("_FILE_NAME"),
                    r.longValue("_FILE_SIZE"),
                    r.longValue("_ROW_COUNT"))));
  }
}
