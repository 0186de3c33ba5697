package io.changelake.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The store contract on S3Proxy, plus what only S3 shows; one server per test class, one prefix per
 * test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class S3ObjectStoreContractTest extends ObjectStoreContractTest {

  S3ProxyServer server;
  private int stores;
  private String prefix;

  abstract S3ProxyServer startServer() throws Exception;

  @BeforeAll
  void start() throws Exception {
    server = startServer();
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  @Override
  ObjectStore newStore() {
    prefix = "tables/store-" + ++stores;
    return server.openStore(prefix, server.settings().toBuilder().multipartPartSize(PART).build());
  }

  @Test
  void rootNamesBucketAndPrefix() {
    assertEquals("s3://" + server.bucket() + "/" + prefix + "/", store.root());
  }

  @Test
  void streamPastOnePartIsStoredAsMultipartUploadOfFullParts() throws Exception {
    try (OutputStream out = store.create("big")) {
      out.write(bytes(3 * PART + 1, 8));
    }
    String etag =
        ((S3ObjectStore) store)
            .client()
            .headObject(b -> b.bucket(server.bucket()).key(prefix + "/big"))
            .eTag();
    // A multipart object's ETag ends in the number of its parts.
    assertTrue(etag.replace("\"", "").endsWith("-4"), etag);
  }
}
