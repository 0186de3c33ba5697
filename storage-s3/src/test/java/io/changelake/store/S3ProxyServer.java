package io.changelake.store;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;

/**
 * An S3 service for tests: S3Proxy in this JVM on 127.0.0.1 and a free port, with one bucket,
 * signature V4 and fixed test credentials. No Docker, no network.
 *
 * <pre>{@code
 * try (S3ProxyServer s3 = S3ProxyServer.startInMemory();
 *     ObjectStore store = s3.openStore("table")) {
 *   ...
 * }
 * }</pre>
 */
public final class S3ProxyServer implements AutoCloseable {

  /** The access key id every client of this server signs with. */
  public static final String ACCESS_KEY_ID = "changelake-test-access-key";

  /** The secret of {@link #ACCESS_KEY_ID}; tests check that it never shows in a message. */
  public static final String SECRET_ACCESS_KEY = "changelake-test-SECRET-3f9a1c";

  /** The bucket {@link #startInMemory()} and {@link #startOnDisk(Path)} create. */
  public static final String DEFAULT_BUCKET = "changelake-test";

  private final S3Proxy proxy;
  private final BlobStore blobs;
  private final String bucket;
  private final URI endpoint;

  private S3ProxyServer(BlobStore blobs, String bucket) throws Exception {
    if (bucket.length() < 3 || bucket.length() > 63) {
      throw new IllegalArgumentException(
          "bucket name '" + bucket + "' has " + bucket.length() + " characters; S3 needs 3 to 63");
    }
    this.blobs = blobs;
    this.bucket = bucket;
    blobs.createContainer(bucket);
    proxy =
        S3Proxy.builder()
            .blobStore(blobs)
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V4, ACCESS_KEY_ID, SECRET_ACCESS_KEY)
            .build();
    proxy.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        proxy.stop();
        throw new IllegalStateException("S3Proxy did not start within 10 s: " + proxy.getState());
      }
      Thread.sleep(10);
    }
    endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
  }

  /** A server keeping objects in memory, with {@link #DEFAULT_BUCKET}. */
  public static S3ProxyServer startInMemory() throws Exception {
    return new S3ProxyServer(new TransientNio2BlobStore(), DEFAULT_BUCKET);
  }

  /** A server keeping objects as files under {@code folder} (the bucket is a subfolder). */
  public static S3ProxyServer startOnDisk(Path folder) throws Exception {
    return startOnDisk(folder, DEFAULT_BUCKET);
  }

  /** A server keeping objects as files under {@code folder}, with the named bucket. */
  public static S3ProxyServer startOnDisk(Path folder, String bucket) throws Exception {
    return new S3ProxyServer(
        new FilesystemNio2BlobStore(folder.toAbsolutePath().toString()), bucket);
  }

  /** The server's URI, {@code http://127.0.0.1:port}. */
  public URI endpoint() {
    return endpoint;
  }

  /** The bucket the server was started with. */
  public String bucket() {
    return bucket;
  }

  /** Settings reaching this server: its endpoint, path style, the test credentials. */
  public S3Settings settings() {
    return S3Settings.builder()
        .endpoint(endpoint)
        .region("us-east-1")
        .pathStyleAccess(true)
        .staticCredentials(ACCESS_KEY_ID, SECRET_ACCESS_KEY)
        .build();
  }

  /** A store on {@code s3://bucket/prefix} of this server, with {@link #settings()}. */
  public S3ObjectStore openStore(String prefix) {
    return new S3ObjectStore(bucket, prefix, settings());
  }

  /** A store on {@code s3://bucket/prefix} of this server, with other settings. */
  public S3ObjectStore openStore(String prefix, S3Settings settings) {
    return new S3ObjectStore(bucket, prefix, settings);
  }

  @Override
  public void close() throws Exception {
    try {
      proxy.stop();
    } finally {
      blobs.close();
    }
  }
}
