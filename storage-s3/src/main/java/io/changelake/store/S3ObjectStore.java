package io.changelake.store;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.SystemSettingsRegionProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An object store on an S3 bucket under a prefix, {@code s3://bucket/prefix}: AWS S3 or any service
 * that speaks its API (MinIO, S3Proxy, LocalStack), configured by {@link S3Settings}.
 *
 * <table>
 *   <caption>How each operation maps to S3</caption>
 *   <tr><th>operation</th><th>S3 request</th></tr>
 *   <tr><td>{@link #read}, {@link #readRange}</td><td>GetObject (with a Range header)</td></tr>
 *   <tr><td>{@link #stat}</td><td>HeadObject; 404 is empty</td></tr>
 *   <tr><td>{@link #write}</td><td>PutObject</td></tr>
 *   <tr><td>{@link #create}</td><td>buffered; one PutObject on close, or a multipart upload once
 *       more than {@link S3Settings#multipartPartSize()} bytes were written</td></tr>
 *   <tr><td>{@link #createIfAbsent}</td><td>PutObject with {@code If-None-Match: *}</td></tr>
 *   <tr><td>{@link #list}</td><td>ListObjectsV2, every page</td></tr>
 *   <tr><td>{@link #delete}</td><td>DeleteObject</td></tr>
 * </table>
 *
 * <p>Throttling, 5xx answers and I/O errors are retried by the SDK's standard retry strategy with
 * jittered exponential backoff, up to {@link S3Settings#maxAttempts()} attempts. A conditional
 * create that S3 answers with 409 ConditionalRequestConflict (another conditional write to the same
 * key was in flight) is retried here after a randomised exponential {@link Backoff}, at most six
 * attempts.
 *
 * <p>When the SDK retries a conditional create whose first attempt reached S3 but whose answer was
 * lost, the retry sees 412 for the object the first attempt made. So after a retried 412 this store
 * reads the object back, and counts the create as its own if the bytes are exactly the ones it
 * sent. Callers of {@link #createIfAbsent} therefore put something unique to the writer in the
 * bytes (the commit protocol does: a commit identifier).
 *
 * <p>Failures are {@link IOException}s naming the operation, the {@code s3://} address and the
 * endpoint; they never contain the secret key or session token.
 */
public final class S3ObjectStore implements ObjectStore {

  /** Attempts of a conditional create that keeps meeting 409 ConditionalRequestConflict. */
  private static final int CONFLICT_ATTEMPTS = 6;

  /** Waits between those attempts: 50 ms before the first retry, doubling up to 800 ms. */
  private static final Backoff CONFLICT_BACKOFF =
      new Backoff(Duration.ofMillis(50), Duration.ofMillis(800));

  private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  private final String bucket;
  private final String prefix;
  private final S3Settings settings;
  private final S3Client client;

  /**
   * A store on {@code s3://bucket/prefix}, with its own S3 client; {@link #close()} releases it.
   *
   * @param bucket the bucket, which must exist
   * @param prefix the folder inside the bucket, without or with slashes around it; empty for the
   *     whole bucket
   * @param settings how to reach the service
   * @throws IllegalArgumentException if {@code bucket} is not a valid bucket name
   */
  public S3ObjectStore(String bucket, String prefix, S3Settings settings) {
    this(bucket, prefix, settings, newClient(settings));
  }

  /** A store using {@code client}, which must be built from {@code settings}; closes it. */
  S3ObjectStore(String bucket, String prefix, S3Settings settings, S3Client client) {
    if (bucket == null || !BUCKET_NAME.matcher(bucket).matches()) {
      throw new IllegalArgumentException(
          "bucket name '"
              + bucket
              + "' is not a valid S3 bucket name: use 3 to 63 lowercase"
              + " letters, digits, dots and hyphens, starting and ending with a letter or digit");
    }
    this.bucket = bucket;
    String trimmed = prefix == null ? "" : prefix.replaceAll("^/+|/+$", "");
    this.prefix = trimmed.isEmpty() ? "" : trimmed + "/";
    this.settings = settings;
    this.client = client;
  }

  /**
   * An S3 client as these settings describe it, with the Apache HTTP client named explicitly;
   * {@code interceptors} see every request and response.
   */
  // The SDK deprecates ApacheHttpClient in favour of its Apache 5 client, not on the class path.
  @SuppressWarnings("deprecation")
  static S3Client newClient(S3Settings settings, ExecutionInterceptor... interceptors) {
    // Named, not found on the classpath: with several clients present the SDK's choice depends
    // on classpath order. Built by the SDK, so closing the S3 client closes it.
    return builder(settings, interceptors).httpClientBuilder(ApacheHttpClient.builder()).build();
  }

  /**
   * An S3 client as these settings describe it, over {@code httpClient} (for tests that put faults
   * under the SDK's retries); closing the S3 client does not close {@code httpClient}.
   */
  static S3Client newClient(S3Settings settings, SdkHttpClient httpClient) {
    return builder(settings).httpClient(httpClient).build();
  }

  private static S3ClientBuilder builder(
      S3Settings settings, ExecutionInterceptor... interceptors) {
    S3ClientBuilder builder =
        S3Client.builder()
            .region(region(settings))
            .credentialsProvider(credentials(settings))
            .forcePathStyle(settings.pathStyleAccess())
            .overrideConfiguration(
                o ->
                    o.retryStrategy(
                            AwsRetryStrategy.standardRetryStrategy().toBuilder()
                                .maxAttempts(settings.maxAttempts())
                                .build())
                        .apiCallTimeout(settings.apiCallTimeout())
                        .executionInterceptors(List.of(interceptors)));
    settings.endpoint().ifPresent(builder::endpointOverride);
    return builder;
  }

  private static Region region(S3Settings settings) {
    if (settings.region().isPresent()) {
      return Region.of(settings.region().get());
    }
    // Only system property and environment: the SDK's full chain would also ask the instance
    // metadata service, which costs seconds off EC2.
    try {
      return new SystemSettingsRegionProvider().getRegion();
    } catch (SdkClientException noneInEnvironment) {
      return Region.US_EAST_1;
    }
  }

  private static AwsCredentialsProvider credentials(S3Settings settings) {
    if (!settings.hasStaticCredentials()) {
      return DefaultCredentialsProvider.builder().build();
    }
    String id = settings.accessKeyId().orElseThrow();
    AwsCredentials credentials =
        settings.sessionToken() == null
            ? AwsBasicCredentials.create(id, settings.secretAccessKey())
            : AwsSessionCredentials.create(id, settings.secretAccessKey(), settings.sessionToken());
    return StaticCredentialsProvider.create(credentials);
  }

  @Override
  public String root() {
    return "s3://" + bucket + "/" + prefix;
  }

  @Override
  public byte[] read(String path) throws IOException {
    String key = key(path);
    try {
      return client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        throw new ObjectNotFoundException(root(), path);
      }
      throw failure("read", key, e);
    } catch (SdkException e) {
      throw failure("read", key, e);
    }
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "readRange of "
              + path
              + " needs offset >= 0 and length >= 0, got "
              + offset
              + ", "
              + length);
    }
    if (length == 0) {
      // An empty Range header is invalid; an empty read only has to prove the object exists.
      if (stat(path).isEmpty()) {
        throw new ObjectNotFoundException(root(), path);
      }
      return new byte[0];
    }
    String key = key(path);
    long end = offset + length;
    ResponseBytes<GetObjectResponse> bytes;
    try {
      bytes =
          client.getObjectAsBytes(
              b -> b.bucket(bucket).key(key).range("bytes=" + offset + "-" + (end - 1)));
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        throw new ObjectNotFoundException(root(), path);
      }
      if (e.statusCode() == 416) {
        throw new EOFException(
            address(key) + " ends before byte " + offset + ", where the range starts");
      }
      throw failure("readRange", key, e);
    } catch (SdkException e) {
      throw failure("readRange", key, e);
    }
    byte[] data = bytes.asByteArray();
    if (data.length < length) {
      throw new EOFException(
          address(key) + " ends before byte " + end + " (" + bytes.response().contentRange() + ")");
    }
    return data;
  }

  @Override
  public Optional<ObjectInfo> stat(String path) throws IOException {
    String key = key(path);
    try {
      HeadObjectResponse head = client.headObject(b -> b.bucket(bucket).key(key));
      return Optional.of(
          new ObjectInfo(path, head.contentLength(), head.lastModified().toEpochMilli()));
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw failure("stat", key, e);
    } catch (SdkException e) {
      throw failure("stat", key, e);
    }
  }

  @Override
  public void write(String path, byte[] data) throws IOException {
    putObject(key(path), data, data.length);
  }

  /** Writes the first {@code length} bytes of {@code data} as the object at {@code key}. */
  void putObject(String key, byte[] data, int length) throws IOException {
    try {
      client.putObject(b -> b.bucket(bucket).key(key), body(data, length));
    } catch (SdkException e) {
      throw failure("write", key, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The stream holds up to {@link S3Settings#multipartPartSize()} bytes in memory. If a part
   * fails to upload, or completing the upload fails, the upload is aborted and the failure
   * reported; no object appears.
   */
  @Override
  public OutputStream create(String path) throws IOException {
    return new S3UploadStream(this, key(path), (int) settings.multipartPartSize());
  }

  @Override
  public boolean createIfAbsent(String path, byte[] data) throws IOException {
    String key = key(path);
    for (int attempt = 1; ; attempt++) {
      try {
        client.putObject(b -> b.bucket(bucket).key(key).ifNoneMatch("*"), body(data, data.length));
        return true;
      } catch (S3Exception e) {
        if (e.statusCode() == 412) {
          Integer attempts = e.numAttempts();
          return attempts != null && attempts > 1 && holdsExactly(path, data);
        }
        if (e.statusCode() != 409 || attempt == CONFLICT_ATTEMPTS) {
          throw failure("createIfAbsent", key, e);
        }
        CONFLICT_BACKOFF.sleep(attempt - 1, "createIfAbsent of " + key);
      } catch (SdkException e) {
        throw failure("createIfAbsent", key, e);
      }
    }
  }

  private boolean holdsExactly(String path, byte[] data) throws IOException {
    try {
      return Arrays.equals(read(path), data);
    } catch (ObjectNotFoundException deletedMeanwhile) {
      return false;
    }
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    String keyPrefix = this.prefix + prefix;
    List<ObjectInfo> objects = new ArrayList<>();
    try {
      for (S3Object object :
          client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(keyPrefix)).contents()) {
        // Consoles create empty "folder/" keys; they are not objects of a table.
        if (object.key().endsWith("/")) {
          continue;
        }
        objects.add(
            new ObjectInfo(
                object.key().substring(this.prefix.length()),
                object.size(),
                object.lastModified().toEpochMilli()));
      }
    } catch (SdkException e) {
      throw failure("list", keyPrefix, e);
    }
    // S3 sorts by UTF-8 bytes; sort as the local store does, by Java string order.
    objects.sort(Comparator.comparing(ObjectInfo::path));
    return objects;
  }

  @Override
  public void delete(String path) throws IOException {
    String key = key(path);
    try {
      client.deleteObject(b -> b.bucket(bucket).key(key));
    } catch (S3Exception e) {
      // AWS answers 204 for a missing key; some compatible services answer 404.
      if (e.statusCode() != 404) {
        throw failure("delete", key, e);
      }
    } catch (SdkException e) {
      throw failure("delete", key, e);
    }
  }

  @Override
  public void close() {
    client.close();
  }

  S3Client client() {
    return client;
  }

  String bucket() {
    return bucket;
  }

  /** A body over the first {@code length} bytes of {@code data}, re-readable for retries. */
  static RequestBody body(byte[] data, int length) {
    return RequestBody.fromContentProvider(
        () -> new ByteArrayInputStream(data, 0, length), length, "application/octet-stream");
  }

  /** The failure of {@code operation} on {@code key}, saying where and why, never with a secret. */
  IOException failure(String operation, String key, SdkException cause) {
    String why = cause.getMessage();
    // The SDK's message may hold only the HTTP reason ("Forbidden"); the S3 error code says more.
    if (cause instanceof AwsServiceException service && service.awsErrorDetails() != null) {
      String code = service.awsErrorDetails().errorCode();
      if (code != null && !why.contains(code)) {
        why = code + ": " + why;
      }
    }
    return new IOException(
        operation
            + " of "
            + address(key)
            + " at "
            + settings.describeEndpoint()
            + " failed: "
            + why,
        cause);
  }

  private String address(String key) {
    return "s3://" + bucket + "/" + key;
  }

  private String key(String path) {
    if (path == null || path.isEmpty() || path.startsWith("/")) {
      throw new IllegalArgumentException(
          "path '"
              + path
              + "' must be relative to the store root "
              + root()
              + ": non-empty and not starting with /");
    }
    return prefix + path;
  }

  @Override
  public String toString() {
    return "S3ObjectStore[" + root() + " at " + settings.describeEndpoint() + "]";
  }
}
