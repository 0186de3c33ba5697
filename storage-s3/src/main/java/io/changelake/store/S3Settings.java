package io.changelake.store;

import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * How to reach S3 (or an S3-compatible service) and how hard to try.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@link Builder#endpoint endpoint}</td><td>none: AWS for the region</td>
 *       <td>the service URI, for MinIO, S3Proxy, LocalStack or a VPC endpoint</td></tr>
 *   <tr><td>{@link Builder#region region}</td><td>{@code aws.region} / {@code AWS_REGION}, else
 *       {@code us-east-1}</td><td>the signing region</td></tr>
 *   <tr><td>{@link Builder#pathStyleAccess pathStyleAccess}</td><td>false</td>
 *       <td>{@code endpoint/bucket/key} instead of {@code bucket.endpoint/key}; most
 *       S3-compatible services need it</td></tr>
 *   <tr><td>credentials</td><td>the SDK's default provider chain</td>
 *       <td>or {@link Builder#staticCredentials static keys}</td></tr>
 *   <tr><td>{@link Builder#maxAttempts maxAttempts}</td><td>5</td>
 *       <td>attempts per call, first included; throttling, 5xx and I/O errors are retried with
 *       the SDK's standard jittered backoff</td></tr>
 *   <tr><td>{@link Builder#multipartPartSize multipartPartSize}</td><td>8 MiB</td>
 *       <td>a written stream switches to a multipart upload past this size; also the memory a
 *       stream buffers</td></tr>
 *   <tr><td>{@link Builder#apiCallTimeout apiCallTimeout}</td><td>2 minutes</td>
 *       <td>the most one call may take, all its retries included</td></tr>
 * </table>
 *
 * <p>Settings are immutable and serializable, so that a pipeline can carry them to its workers.
 * With static credentials that means the secret travels with the pipeline; prefer the default chain
 * (instance roles, web identity) where the workers have one. {@link #toString()} never shows the
 * secret or the session token.
 */
public final class S3Settings implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The smallest part S3 accepts in a multipart upload (except the last). */
  public static final long MIN_PART_SIZE = 5L << 20;

  /** The largest part this store buffers: parts are held in memory. */
  public static final long MAX_PART_SIZE = 1L << 30;

  private static final S3Settings DEFAULTS = builder().build();

  private final URI endpoint;
  private final String region;
  private final boolean pathStyleAccess;
  private final String accessKeyId;
  private final String secretAccessKey;
  private final String sessionToken;
  private final int maxAttempts;
  private final long multipartPartSize;
  private final Duration apiCallTimeout;

  private S3Settings(Builder builder) {
    this.endpoint = builder.endpoint;
    this.region = builder.region;
    this.pathStyleAccess = builder.pathStyleAccess;
    this.accessKeyId = builder.accessKeyId;
    this.secretAccessKey = builder.secretAccessKey;
    this.sessionToken = builder.sessionToken;
    this.maxAttempts = builder.maxAttempts;
    this.multipartPartSize = builder.multipartPartSize;
    this.apiCallTimeout = builder.apiCallTimeout;
  }

  /** AWS S3 in the environment's region, the default credential chain, default limits. */
  public static S3Settings defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these settings, to change a few. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The service URI, or empty for AWS's own endpoint of the region. */
  public Optional<URI> endpoint() {
    return Optional.ofNullable(endpoint);
  }

  /**
   * The region set explicitly, or empty to take {@code aws.region} / {@code AWS_REGION} from the
   * environment, falling back to {@code us-east-1}.
   */
  public Optional<String> region() {
    return Optional.ofNullable(region);
  }

  /** Whether buckets are addressed in the path rather than in the host name. */
  public boolean pathStyleAccess() {
    return pathStyleAccess;
  }

  /** Whether static keys are set; if not, the SDK's default credential chain is used. */
  public boolean hasStaticCredentials() {
    return accessKeyId != null;
  }

  /** The static access key id, if static credentials are set. An id, not a secret. */
  public Optional<String> accessKeyId() {
    return Optional.ofNullable(accessKeyId);
  }

  /** Attempts per call, the first included. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** The size past which a written stream becomes a multipart upload, and the size of its parts. */
  public long multipartPartSize() {
    return multipartPartSize;
  }

  /** The most one call may take, all its retries included. */
  public Duration apiCallTimeout() {
    return apiCallTimeout;
  }

  // The secret and the token have no public getters: only the client factory in this package
  // hands them to the SDK, so no caller can log them by accident.
  String secretAccessKey() {
    return secretAccessKey;
  }

  String sessionToken() {
    return sessionToken;
  }

  /** Where requests go, for error messages: the endpoint, or AWS for the region. */
  String describeEndpoint() {
    return endpoint != null
        ? endpoint.toString()
        : "AWS S3 (" + region().orElse("default region") + ")";
  }

  @Override
  public String toString() {
    String credentials =
        accessKeyId == null
            ? "default chain"
            : "static " + accessKeyId + " secret=***" + (sessionToken == null ? "" : " token=***");
    return "S3Settings[endpoint="
        + describeEndpoint()
        + ", region="
        + region().orElse("from environment")
        + ", pathStyleAccess="
        + pathStyleAccess
        + ", credentials="
        + credentials
        + ", maxAttempts="
        + maxAttempts
        + ", multipartPartSize="
        + multipartPartSize
        + ", apiCallTimeout="
        + apiCallTimeout
        + "]";
  }

  /** Builds {@link S3Settings}; {@link #build()} checks every value and says how to fix it. */
  public static final class Builder {
    private URI endpoint;
    private String region;
    private boolean pathStyleAccess;
    private String accessKeyId;
    private String secretAccessKey;
    private String sessionToken;
    private int maxAttempts = 5;
    private long multipartPartSize = 8L << 20;
    private Duration apiCallTimeout = Duration.ofMinutes(2);

    private Builder() {}

    private Builder(S3Settings settings) {
      this.endpoint = settings.endpoint;
      this.region = settings.region;
      this.pathStyleAccess = settings.pathStyleAccess;
      this.accessKeyId = settings.accessKeyId;
      this.secretAccessKey = settings.secretAccessKey;
      this.sessionToken = settings.sessionToken;
      this.maxAttempts = settings.maxAttempts;
      this.multipartPartSize = settings.multipartPartSize;
      this.apiCallTimeout = settings.apiCallTimeout;
    }

    /** The service URI ({@code http://host:port} or {@code https://...}); null for AWS itself. */
    public Builder endpoint(URI endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    /** The signing region, e.g. {@code eu-west-1}; null to take it from the environment. */
    public Builder region(String region) {
      this.region = region;
      return this;
    }

    /**
     * Address the bucket in the path ({@code endpoint/bucket/key}); most non-AWS services need it.
     */
    public Builder pathStyleAccess(boolean pathStyleAccess) {
      this.pathStyleAccess = pathStyleAccess;
      return this;
    }

    /** Use these long-term keys instead of the default credential chain. */
    public Builder staticCredentials(String accessKeyId, String secretAccessKey) {
      return staticCredentials(accessKeyId, secretAccessKey, null);
    }

    /** Use these temporary keys (with their session token) instead of the default chain. */
    public Builder staticCredentials(
        String accessKeyId, String secretAccessKey, String sessionToken) {
      this.accessKeyId = accessKeyId;
      this.secretAccessKey = secretAccessKey;
      this.sessionToken = sessionToken;
      return this;
    }

    /**
     * Use the SDK's default credential chain (environment, profile, web identity, instance role).
     */
    public Builder defaultCredentials() {
      return staticCredentials(null, null, null);
    }

    /** Attempts per call, the first included; 1 turns retries off. */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * Part size of multipart uploads, between {@link #MIN_PART_SIZE} and {@link #MAX_PART_SIZE}.
     */
    public Builder multipartPartSize(long multipartPartSize) {
      this.multipartPartSize = multipartPartSize;
      return this;
    }

    /** The most one call may take, all its retries included. */
    public Builder apiCallTimeout(Duration apiCallTimeout) {
      this.apiCallTimeout = apiCallTimeout;
      return this;
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException naming the setting that is wrong and how to fix it
     */
    public S3Settings build() {
      if (endpoint != null) {
        String scheme = endpoint.getScheme();
        if (!("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))
            || endpoint.getHost() == null) {
          throw new IllegalArgumentException(
              "endpoint "
                  + endpoint
                  + " is not an http(s) URI with a host:"
                  + " give one like http://127.0.0.1:9000, or none for AWS S3");
        }
      }
      if (region != null && region.isBlank()) {
        throw new IllegalArgumentException(
            "region is blank: give one like us-east-1, or null to take it from the environment");
      }
      if (accessKeyId != null || secretAccessKey != null || sessionToken != null) {
        if (accessKeyId == null || accessKeyId.isBlank()) {
          throw new IllegalArgumentException(
              "static credentials lack the access key id: give both the access key id and the"
                  + " secret, or use defaultCredentials()");
        }
        if (secretAccessKey == null || secretAccessKey.isEmpty()) {
          throw new IllegalArgumentException(
              "static credentials for access key id "
                  + accessKeyId
                  + " lack the secret: give"
                  + " both the access key id and the secret, or use defaultCredentials()");
        }
        if (sessionToken != null && sessionToken.isEmpty()) {
          throw new IllegalArgumentException(
              "session token is empty: pass null for long-term keys, or the token of temporary ones");
        }
      }
      if (maxAttempts < 1) {
        throw new IllegalArgumentException(
            "maxAttempts is " + maxAttempts + ": give 1 (no retries) or more");
      }
      if (multipartPartSize < MIN_PART_SIZE || multipartPartSize > MAX_PART_SIZE) {
        throw new IllegalArgumentException(
            "multipartPartSize is "
                + multipartPartSize
                + " bytes: give between "
                + MIN_PART_SIZE
                + " (5 MiB, the S3 minimum) and "
                + MAX_PART_SIZE
                + " (1 GiB, parts are buffered in memory)");
      }
      if (apiCallTimeout == null || apiCallTimeout.isNegative() || apiCallTimeout.isZero()) {
        throw new IllegalArgumentException(
            "apiCallTimeout is " + apiCallTimeout + ": give a positive duration, e.g. 2 minutes");
      }
      return new S3Settings(this);
    }
  }
}
