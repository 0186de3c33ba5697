package io.changelake.format;

import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads and writes manifest lists: Avro files of {@link ManifestFileMeta} that a snapshot names as
 * its base, delta and changelog, byte-compatible with Paimon 1.x.
 */
public final class ManifestList {

  /** The schemas written, parsed on the first write: a reader decodes by each file's own. */
  private static final class Schemas {
    static final Schema META = AvroContainer.schema("manifest-file-meta.avsc");
    static final Schema STATS = AvroContainer.recordField(META, "_PARTITION_STATS");
  }

  private final ObjectStore store;
  private final String folder;

  /**
   * @param store the store holding the table
   * @param folder the table's manifest folder, ending in {@code /}
   */
  public ManifestList(ObjectStore store, String folder) {
    this.store = store;
    this.folder = folder;
  }

  /** Writes a new manifest list and returns its size in bytes. */
  public long write(String fileName, List<ManifestFileMeta> manifests) throws IOException {
    List<GenericRecord> records = new ArrayList<>(manifests.size());
    for (ManifestFileMeta m : manifests) {
      GenericRecord record = AvroContainer.record(Schemas.META);
      record.put("_VERSION", ManifestFile.VERSION);
      record.put("_FILE_NAME", m.fileName());
      record.put("_FILE_SIZE", m.fileSize());
      record.put("_NUM_ADDED_FILES", m.numAddedFiles());
      record.put("_NUM_DELETED_FILES", m.numDeletedFiles());
      record.put("_PARTITION_STATS", AvroContainer.stats(Schemas.STATS, m.partitionStats()));
      record.put("_SCHEMA_ID", m.schemaId());
      record.put("_MIN_BUCKET", m.minBucket());
      record.put("_MAX_BUCKET", m.maxBucket());
      record.put("_MIN_LEVEL", m.minLevel());
      record.put("_MAX_LEVEL", m.maxLevel());
      records.add(record);
    }
    byte[] bytes = AvroContainer.write(Schemas.META, records);
    store.write(folder + fileName, bytes);
    return bytes.length;
  }

  /**
   * The manifests a list names, in order.
   *
   * @throws io.changelake.store.ObjectNotFoundException if the list is missing
   * @throws IOException naming the list if it cannot be parsed
   */
  public List<ManifestFileMeta> read(String fileName) throws IOException {
    byte[] bytes = store.read(folder + fileName);
    return AvroContainer.read(
        bytes,
        "manifest list " + folder + fileName,
        r ->
            new ManifestFileMeta(
                r.string("_FILE_NAME"),
                r.longValue("_FILE_SIZE"),
                r.longValue("_NUM_ADDED_FILES"),
                r.longValue("_NUM_DELETED_FILES"),
                AvroContainer.stats(r.record("_PARTITION_STATS")),
                r.longValue("_SCHEMA_ID"),
                r.optionalInt("_MIN_BUCKET"),
                r.optionalInt("_MAX_BUCKET"),
                r.optionalInt("_MIN_LEVEL"),
                r.optionalInt("_MAX_LEVEL")));
  }
}
