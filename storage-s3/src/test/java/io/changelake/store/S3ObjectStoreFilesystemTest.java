package io.changelake.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on S3Proxy keeping objects as files. */
class S3ObjectStoreFilesystemTest extends S3ObjectStoreContractTest {

  @TempDir static Path folder;

  @Override
  S3ProxyServer startServer() throws Exception {
    return S3ProxyServer.startOnDisk(folder);
  }
}
