package io.changelake.conformance;

import java.io.IOException;
import org.apache.paimon.disk.BufferFileReader;
import org.apache.paimon.disk.BufferFileWriter;
import org.apache.paimon.disk.FileIOChannel;
import org.apache.paimon.disk.IOManager;

/**
 * Test fixture: Paimon's local spill disk, counting the spill files Paimon writes to it, so a test
 * can tell whether Paimon's write buffer really spilled (each spill of its sort buffer, and each
 * merge of spilled runs, writes one).
 */
final class CountingIOManager implements IOManager {

  private final IOManager disk;
  private int written;

  CountingIOManager(IOManager disk) {
    this.disk = disk;
  }

  /** The spill files written so far. */
  int written() {
    return written;
  }

  @Override
  public BufferFileWriter createBufferFileWriter(FileIOChannel.ID channel) throws IOException {
    written++;
    return disk.createBufferFileWriter(channel);
  }

  @Override
  public FileIOChannel.ID createChannel() {
    return disk.createChannel();
  }

  @Override
  public FileIOChannel.ID createChannel(String prefix) {
    return disk.createChannel(prefix);
  }

  @Override
  public String[] tempDirs() {
    return disk.tempDirs();
  }

  @Override
  public FileIOChannel.Enumerator createChannelEnumerator() {
    return disk.createChannelEnumerator();
  }

  @Override
  public BufferFileReader createBufferFileReader(FileIOChannel.ID channel) throws IOException {
    return disk.createBufferFileReader(channel);
  }

  @Override
  public void close() throws Exception {
    disk.close();
  }
}
