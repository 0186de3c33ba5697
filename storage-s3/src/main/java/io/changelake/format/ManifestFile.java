package io.changelake.format;

import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads and writes manifests: Avro files of {@link ManifestEntry} in a table's {@code manifest/}
 * folder, byte-compatible with Paimon 1.x.
 */
public final class ManifestFile {

  /** The version Paimon 1.x writes in {@code _VERSION} of entries and of their files. */
  static final int VERSION = 2;

  /** The schemas written, parsed on the first write: a reader decodes by each file's own. */
  private static final class Schemas {
    static final Schema ENTRY = AvroContainer.schema("manifest-entry.avsc");
    static final Schema FILE = AvroContainer.recordField(ENTRY, "_FILE");
    static final Schema STATS = AvroContainer.recordField(FILE, "_KEY_STATS");
  }

  private final ObjectStore store;
  private final String folder;

  /**
   * @param store the store holding the table
   * @param folder the table's manifest folder, ending in {@code /}
   */
  public ManifestFile(ObjectStore store, String folder) {
    this.store = store;
    this.folder = folder;
  }

  /** Writes the entries as a new manifest and returns what a manifest list records of it. */
  public ManifestFileMeta write(
      String fileName, List<ManifestEntry> entries, SimpleStats partitionStats, long schemaId)
      throws IOException {
    List<GenericRecord> records = new ArrayList<>(entries.size());
    long added = 0;
    long deleted = 0;
    Integer minBucket = null;
    Integer maxBucket = null;
    Integer minLevel = null;
    Integer maxLevel = null;
    for (ManifestEntry entry : entries) {
      records.add(toAvro(entry));
      if (entry.kind() == FileKind.ADD) {
        added++;
      } else {
        deleted++;
      }
      int bucket = entry.bucket();
      int level = entry.file().level();
      minBucket = minBucket == null ? bucket : Math.min(minBucket, bucket);
      maxBucket = maxBucket == null ? bucket : Math.max(maxBucket, bucket);
      minLevel = minLevel == null ? level : Math.min(minLevel, level);
      maxLevel = maxLevel == null ? level : Math.max(maxLevel, level);
    }
    byte[] bytes = AvroContainer.write(Schemas.ENTRY, records);
    store.write(folder + fileName, bytes);
    return new ManifestFileMeta(
        fileName,
        bytes.length,
        added,
        deleted,
        partitionStats,
        schemaId,
        minBucket,
        maxBucket,
        minLevel,
        maxLevel);
  }

  /**
   * The entries of a manifest, in file order.
   *
   * @throws io.changelake.store.ObjectNotFoundException if the manifest is missing
   * @throws IOException naming the manifest if it cannot be parsed
   */
  public List<ManifestEntry> read(String fileName) throws IOException {
    byte[] bytes = store.read(folder + fileName);
    return AvroContainer.read(bytes, "manifest " + folder + fileName, ManifestFile::fromAvro);
  }

  private static GenericRecord toAvro(ManifestEntry entry) {
    DataFileMeta f = entry.file();
    GenericRecord file = AvroContainer.record(Schemas.FILE);
    file.put("_FILE_NAME", f.fileName());
    file.put("_FILE_SIZE", f.fileSize());
    file.put("_ROW_COUNT", f.rowCount());
    file.put("_MIN_KEY", AvroContainer.bytes(f.minKey()));
    file.put("_MAX_KEY", AvroContainer.bytes(f.maxKey()));
    file.put("_KEY_STATS", AvroContainer.stats(Schemas.STATS, f.keyStats()));
    file.put("_VALUE_STATS", AvroContainer.stats(Schemas.STATS, f.valueStats()));
    file.put("_MIN_SEQUENCE_NUMBER", f.minSequenceNumber());
    file.put("_MAX_SEQUENCE_NUMBER", f.maxSequenceNumber());
    file.put("_SCHEMA_ID", f.schemaId());
    file.put("_LEVEL", f.level());
    file.put("_EXTRA_FILES", new ArrayList<>(f.extraFiles()));
    file.put("_CREATION_TIME", f.creationTimeMillis());
    file.put("_DELETE_ROW_COUNT", f.deleteRowCount());
    file.put("_EMBEDDED_FILE_INDEX", null);
    file.put("_FILE_SOURCE", f.fileSource() == null ? null : f.fileSource().value());
    file.put(
        "_VALUE_STATS_COLS",
        f.valueStatsCols() == null ? null : new ArrayList<>(f.valueStatsCols()));
    file.put("_EXTERNAL_PATH", null);
    file.put("_FIRST_ROW_ID", null);
    file.put("_WRITE_COLS", null);

    GenericRecord record = AvroContainer.record(Schemas.ENTRY);
    record.put("_VERSION", VERSION);
    record.put("_KIND", entry.kind().value());
    record.put("_PARTITION", AvroContainer.bytes(entry.partition()));
    record.put("_BUCKET", entry.bucket());
    record.put("_TOTAL_BUCKETS", entry.totalBuckets());
    record.put("_FILE", file);
    return record;
  }

  private static ManifestEntry fromAvro(AvroRecord record) throws IOException {
    AvroRecord file = record.record("_FILE");
    Integer fileSource = file.optionalInt("_FILE_SOURCE");
    DataFileMeta meta =
        new DataFileMeta(
            file.string("_FILE_NAME"),
            file.longValue("_FILE_SIZE"),
            file.longValue("_ROW_COUNT"),
            new SerializedRow(file.bytes("_MIN_KEY")),
            new SerializedRow(file.bytes("_MAX_KEY")),
            AvroContainer.stats(file.record("_KEY_STATS")),
            AvroContainer.stats(file.record("_VALUE_STATS")),
            file.longValue("_MIN_SEQUENCE_NUMBER"),
            file.longValue("_MAX_SEQUENCE_NUMBER"),
            file.longValue("_SCHEMA_ID"),
            file.intValue("_LEVEL"),
            file.strings("_EXTRA_FILES"),
            file.optionalLong("_CREATION_TIME"),
            file.optionalLong("_DELETE_ROW_COUNT"),
            fileSource == null ? null : FileSource.fromValue(fileSource),
            file.strings("_VALUE_STATS_COLS"));
    return new ManifestEntry(
        FileKind.fromValue(record.intValue("_KIND")),
        new SerializedRow(record.bytes("_PARTITION")),
        record.intValue("_BUCKET"),
        record.intValue("_TOTAL_BUCKETS"),
        meta);
  }
}
