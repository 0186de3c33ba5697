package io.changelake.format;

import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A dynamic-bucket table's hash index file ({@code index/index-<uuid>-<n>}): the 32-bit hashes of
 * the keys of one (partition, bucket), each as four big-endian bytes, nothing else, as Paimon's
 * {@code HashIndexFile} stores them. A key's hash is Paimon's BinaryRow hash of its primary key
 * without the partition columns ({@link BinaryRowCodec#hash}). Order carries no meaning.
 */
public final class HashIndexFile {

  private final ObjectStore store;
  private final String folder;

  /**
   * @param store the store holding the table
   * @param folder the table's index folder, ending in {@code /}
   */
  public HashIndexFile(ObjectStore store, String folder) {
    this.store = store;
    this.folder = folder;
  }

  /** Writes the hashes to a new file of this name and returns its meta. */
  public IndexFileMeta write(String fileName, int[] hashes) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(hashes.length * Integer.BYTES);
    for (int h : hashes) {
      bytes.putInt(h);
    }
    store.write(folder + fileName, bytes.array());
    return new IndexFileMeta(
        IndexFileMeta.HASH, fileName, (long) hashes.length * Integer.BYTES, hashes.length);
  }

  /**
   * The hashes of an index file.
   *
   * @throws IOException naming the file if its length is not a multiple of four bytes
   */
  public int[] read(IndexFileMeta file) throws IOException {
    byte[] bytes = store.read(folder + file.fileName());
    if (bytes.length % Integer.BYTES != 0) {
      throw new IOException(
          "hash index file "
              + folder
              + file.fileName()
              + " has "
              + bytes.length
              + " bytes, not a multiple of 4: it is not a hash index");
    }
    int[] hashes = new int[bytes.length / Integer.BYTES];
    ByteBuffer.wrap(bytes).asIntBuffer().get(hashes);
    return hashes;
  }
}
