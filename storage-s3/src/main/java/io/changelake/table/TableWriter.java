package io.changelake.table;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BucketFunction;
import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.types.DataField;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes rows into a table's buckets as level-0 files, ready to commit.
 *
 * <p>Each row is routed to its partition and bucket (Paimon's bucket function, so Paimon writers
 * agree) and gets the bucket's next sequence number, continuing from the files already committed.
 * {@link #prepareCommit} writes each bucket's rows as one file sorted by key, keeping the last
 * record of each key, and returns one {@link CommitMessage} per bucket written.
 *
 * <p>Not thread-safe. Rows are checked as they arrive: a null primary-key value, a wrong Java
 * class or a wrong column count is an {@link IllegalArgumentException} naming the column, and
 * nothing of that row is kept.
 */
public final class TableWriter implements AutoCloseable {

  private final Table table;
  private final TableSchema schema;
  private final RowType rowType;
  private final int[] keyIndexes;
  private final int[] partitionIndexes;
  private final int[] bucketKeyIndexes;
  private final BinaryRowCodec partitionCodec;
  private final BucketFunction bucketFunction;
  private final RowComparator keyOrder;
  private final Map<BucketId, BucketBuffer> buffers = new LinkedHashMap<>();
  private Map<BucketId, Long> committedMaxSequence;

  TableWriter(Table table) {
    this.table = table;
    this.schema = table.schema();
    this.rowType = schema.rowType();
    this.keyIndexes = schema.keyIndexes();
    this.partitionIndexes = schema.partitionIndexes();
    this.bucketKeyIndexes = schema.bucketKeyIndexes();
    this.partitionCodec = new BinaryRowCodec(schema.partitionType());
    this.bucketFunction =
        new BucketFunction(rowType.project(bucketKeyIndexes), schema.options().bucket());
    this.keyOrder = new RowComparator(schema.keyType());
  }

  private record BucketId(SerializedRow partition, int bucket) {}

  private static final class BucketBuffer {
    final Object[] partitionValues;
    final List<KeyValue> records = new ArrayList<>();
    long nextSequence;

    BucketBuffer(Object[] partitionValues, long nextSequence) {
      this.partitionValues = partitionValues;
      this.nextSequence = nextSequence;
    }
  }

  /**
   * Buffers one row with its kind.
   *
   * @throws IllegalArgumentException naming the column if the row does not fit the table
   */
  public void write(RowKind kind, Object[] row) throws IOException {
    checkRow(row);
    Object[] partition = project(row, partitionIndexes);
    SerializedRow partitionBytes = new SerializedRow(partitionCodec.encode(partition));
    int bucket = bucketFunction.bucket(project(row, bucketKeyIndexes));
    BucketId id = new BucketId(partitionBytes, bucket);
    BucketBuffer buffer = buffers.get(id);
    if (buffer == null) {
      buffer = new BucketBuffer(partition, committedMaxSequence(id) + 1);
      buffers.put(id, buffer);
    }
    buffer.records.add(
        new KeyValue(project(row, keyIndexes), buffer.nextSequence++, kind, row.clone()));
  }

  private void checkRow(Object[] row) {
    if (row == null || row.length != rowType.size()) {
      throw new IllegalArgumentException(
          "a row of " + table.location() + " has " + rowType.size() + " columns "
              + rowType.names() + ", got " + (row == null ? "null" : row.length + " values"));
    }
    for (int i = 0; i < row.length; i++) {
      DataField field = rowType.field(i);
      Object value = row[i];
      if (value == null) {
        if (!field.type().nullable()) {
          throw new IllegalArgumentException(
              "column '" + field.name() + "' is NOT NULL"
                  + (schema.primaryKeys().contains(field.name()) ? " (primary key)" : "")
                  + " but the row has null there");
        }
      } else if (!field.type().root().javaClass().isInstance(value)) {
        throw new IllegalArgumentException(
            "column '" + field.name() + "' of type " + field.type() + " takes a "
                + field.type().root().javaClass().getSimpleName() + ", got a "
                + value.getClass().getSimpleName() + " (" + value + ")");
      }
    }
  }

  private static Object[] project(Object[] row, int[] indexes) {
    Object[] out = new Object[indexes.length];
    for (int i = 0; i < indexes.length; i++) {
      out[i] = row[indexes[i]];
    }
    return out;
  }

  private long committedMaxSequence(BucketId id) throws IOException {
    if (committedMaxSequence == null) {
      committedMaxSequence = new HashMap<>();
      Optional<Snapshot> latest = table.snapshots().latest();
      if (latest.isPresent()) {
        for (ManifestEntry e : table.newScan().liveFiles(latest.get())) {
          committedMaxSequence.merge(
              new BucketId(e.partition(), e.bucket()), e.file().maxSequenceNumber(), Math::max);
        }
      }
    }
    return committedMaxSequence.getOrDefault(id, -1L);
  }

  /**
   * Writes every buffered bucket as a level-0 file and returns what to commit; the buffers are
   * empty afterwards.
   */
  public List<CommitMessage> prepareCommit() throws IOException {
    List<CommitMessage> messages = new ArrayList<>();
    Comparator<KeyValue> order =
        Comparator.<KeyValue, Object[]>comparing(KeyValue::key, keyOrder)
            .thenComparingLong(KeyValue::sequenceNumber);
    for (Map.Entry<BucketId, BucketBuffer> e : buffers.entrySet()) {
      BucketBuffer buffer = e.getValue();
      if (buffer.records.isEmpty()) {
        continue;
      }
      buffer.records.sort(order);
      String partitionPath =
          TablePath.partitionPath(
              schema.partitionType(), buffer.partitionValues, schema.options().partitionDefaultName());
      BucketFiles files = new BucketFiles(table, partitionPath, e.getKey().bucket());
      KeyValueFileWriter writer = files.newDataFile();
      try {
        List<KeyValue> records = buffer.records;
        for (int i = 0; i < records.size(); i++) {
          boolean lastOfKey =
              i + 1 == records.size()
                  || keyOrder.compare(records.get(i).key(), records.get(i + 1).key()) != 0;
          if (lastOfKey) {
            writer.write(records.get(i));
          }
        }
      } catch (IOException | RuntimeException failure) {
        writer.close();
        throw failure;
      }
      DataFileMeta file = files.finish(writer, 0, FileSource.APPEND);
      buffer.records.clear();
      messages.add(
          CommitMessage.ofAppend(
              e.getKey().partition(), e.getKey().bucket(), bucketFunction.buckets(), List.of(file), List.of()));
    }
    return messages;
  }

  @Override
  public void close() {
    buffers.clear();
  }
}
