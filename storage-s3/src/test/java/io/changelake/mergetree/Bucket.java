package io.changelake.mergetree;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.SerializedRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.util.List;

/**
 * Test fixture: the file descriptions and records of one bucket whose key is {@code id BIGINT},
 * without any file behind them; what the merge tree's pure classes are tested with.
 */
final class Bucket {

  static final RowType KEY = RowType.of(new String[] {"id"}, new DataType[] {DataType.bigint()});

  private static final BinaryRowCodec KEY_CODEC = new BinaryRowCodec(KEY);

  private Bucket() {}

  /** A file named {@code name} at {@code level} of {@code size} bytes holding keys min to max. */
  static DataFileMeta file(String name, int level, long size, long minKey, long maxKey) {
    return file(name, level, size, minKey, maxKey, 0);
  }

  /** The same, its records numbered up to {@code maxSequence}. */
  static DataFileMeta file(
      String name, int level, long size, long minKey, long maxKey, long maxSequence) {
    return new DataFileMeta(
        name,
        size,
        maxKey - minKey + 1,
        key(minKey),
        key(maxKey),
        null,
        null,
        0,
        maxSequence,
        0,
        level,
        List.of(),
        null,
        0L,
        level == 0 ? FileSource.APPEND : FileSource.COMPACT,
        null);
  }

  /** A file whose key range does not matter. */
  static DataFileMeta file(String name, int level, long size) {
    return file(name, level, size, 0, 0);
  }

  /** A sorted run of one file per size given, at one level. */
  static SortedRun run(int level, long... sizes) {
    DataFileMeta[] files = new DataFileMeta[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      files[i] = file("L" + level + "-" + i + "-" + sizes[i], level, sizes[i]);
    }
    return SortedRun.of(level, List.of(files));
  }

  /** The row {@code (id, amount)} of key {@code id}. */
  static KeyValue row(long id, long sequence, RowKind kind, long amount) {
    return new KeyValue(new Object[] {id}, sequence, kind, new Object[] {id, amount});
  }

  private static SerializedRow key(long id) {
    return new SerializedRow(KEY_CODEC.encode(new Object[] {id}));
  }
}
