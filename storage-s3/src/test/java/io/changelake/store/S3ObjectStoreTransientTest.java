package io.changelake.store;

/** The store contract on S3Proxy keeping objects in memory. */
class S3ObjectStoreTransientTest extends S3ObjectStoreContractTest {

  @Override
  S3ProxyServer startServer() throws Exception {
    return S3ProxyServer.startInMemory();
  }
}
