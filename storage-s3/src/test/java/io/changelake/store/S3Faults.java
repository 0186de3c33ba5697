package io.changelake.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Test fixture: an HTTP client for the S3 SDK that injects the faults S3 gives under load into any
 * request the store makes, under the SDK's retries (each attempt is decided afresh), and counts
 * them per operation.
 *
 * <ul>
 *   <li>{@link Kind#SLOW_DOWN} 503 SlowDown, {@link Kind#THROTTLED} 429 and {@link
 *       Kind#INTERNAL_ERROR} 500: answered without sending the request, so S3 did not do it;
 *   <li>{@link Kind#LOST_ANSWER}: S3 does the request, then its answer is replaced by a 500, so the
 *       client cannot know it succeeded (the hardest case for idempotence);
 *   <li>{@link Kind#RESET}: the connection is reset before the request is sent;
 *   <li>{@link Kind#SLOW}: the answer arrives {@link #SLOW_MILLIS} late, and is right.
 * </ul>
 *
 * <p>Which requests fail: at random with {@link #randomly}, or the next ones of an operation with
 * {@link #failNext}.
 */
final class S3Faults implements SdkHttpClient {

  /** The faults. */
  enum Kind {
    SLOW_DOWN,
    THROTTLED,
    INTERNAL_ERROR,
    LOST_ANSWER,
    RESET,
    SLOW
  }

  static final long SLOW_MILLIS = 150;

  private final SdkHttpClient delegate;
  private final Map<String, AtomicLong> injected = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> requests = new ConcurrentHashMap<>();
  private Random random;
  private double rate;
  private Predicate<String> match = op -> false;
  private Kind nextKind;
  private final AtomicInteger nextCount = new AtomicInteger();

  S3Faults(SdkHttpClient delegate) {
    this.delegate = delegate;
  }

  /**
   * From now on, each request fails with probability {@code rate}, with a random kind; the first
   * request of each operation fails whatever the draw, so every operation a run makes is faulted at
   * least once.
   */
  synchronized S3Faults randomly(long seed, double rate) {
    this.random = new Random(seed);
    this.rate = rate;
    return this;
  }

  /**
   * The next {@code count} requests whose operation {@code operation} accepts fail with {@code
   * kind}.
   */
  synchronized S3Faults failNext(Predicate<String> operation, Kind kind, int count) {
    this.match = operation;
    this.nextKind = kind;
    this.nextCount.set(count);
    return this;
  }

  /** Stops injecting. */
  synchronized void stop() {
    random = null;
    nextCount.set(0);
  }

  /** Faults injected, by "operation kind". */
  Map<String, Long> injected() {
    Map<String, Long> counts = new TreeMap<>();
    injected.forEach((k, v) -> counts.put(k, v.get()));
    return counts;
  }

  /** Requests (attempts) seen, faulted or not, by operation. */
  Map<String, Long> requests() {
    Map<String, Long> counts = new TreeMap<>();
    requests.forEach((k, v) -> counts.put(k, v.get()));
    return counts;
  }

  /** The S3 operation of a request, from its method, query and headers. */
  static String operation(SdkHttpRequest request) {
    Map<String, ?> query = request.rawQueryParameters();
    SdkHttpMethod method = request.method();
    if (method == SdkHttpMethod.GET) {
      if (query.containsKey("list-type")) {
        return "ListObjectsV2";
      }
      return request.firstMatchingHeader("Range").isPresent() ? "GetObject(range)" : "GetObject";
    }
    if (method == SdkHttpMethod.HEAD) {
      return "HeadObject";
    }
    if (method == SdkHttpMethod.PUT) {
      if (query.containsKey("partNumber")) {
        return "UploadPart";
      }
      return request.firstMatchingHeader("If-None-Match").isPresent()
          ? "PutObject(conditional)"
          : "PutObject";
    }
    if (method == SdkHttpMethod.POST) {
      if (query.containsKey("uploads")) {
        return "CreateMultipartUpload";
      }
      if (query.containsKey("uploadId")) {
        return "CompleteMultipartUpload";
      }
      return query.containsKey("delete") ? "DeleteObjects" : "POST";
    }
    if (method == SdkHttpMethod.DELETE) {
      return query.containsKey("uploadId") ? "AbortMultipartUpload" : "DeleteObject";
    }
    return method.name();
  }

  private synchronized Kind decide(String operation) {
    if (nextCount.get() > 0 && match.test(operation)) {
      nextCount.decrementAndGet();
      return nextKind;
    }
    boolean firstOfItsOperation = requests.get(operation).get() == 1;
    if (random != null && (random.nextDouble() < rate || firstOfItsOperation)) {
      Kind[] kinds = Kind.values();
      return kinds[random.nextInt(kinds.length)];
    }
    return null;
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    String operation = operation(request.httpRequest());
    requests.computeIfAbsent(operation, k -> new AtomicLong()).incrementAndGet();
    Kind kind = decide(operation);
    if (kind == null) {
      return delegate.prepareRequest(request);
    }
    injected.computeIfAbsent(operation + " " + kind, k -> new AtomicLong()).incrementAndGet();
    return new ExecutableHttpRequest() {
      private ExecutableHttpRequest sent;

      @Override
      public HttpExecuteResponse call() throws IOException {
        switch (kind) {
          case SLOW_DOWN:
            return error(503, "SlowDown");
          case THROTTLED:
            return error(429, "Throttling");
          case INTERNAL_ERROR:
            return error(500, "InternalError");
          case RESET:
            throw new SocketException("Connection reset (injected by the test)");
          case LOST_ANSWER:
            sent = delegate.prepareRequest(request);
            HttpExecuteResponse done = sent.call();
            if (done.responseBody().isPresent()) {
              done.responseBody().get().close();
            }
            return error(500, "InternalError");
          default:
            try {
              Thread.sleep(SLOW_MILLIS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new java.io.InterruptedIOException("interrupted");
            }
            sent = delegate.prepareRequest(request);
            return sent.call();
        }
      }

      @Override
      public void abort() {
        if (sent != null) {
          sent.abort();
        }
      }
    };
  }

  private static HttpExecuteResponse error(int status, String code) {
    byte[] xml =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                + code
                + "</Code><Message>injected by the test</Message></Error>")
            .getBytes(StandardCharsets.UTF_8);
    return HttpExecuteResponse.builder()
        .response(
            SdkHttpResponse.builder()
                .statusCode(status)
                .putHeader("Content-Type", "application/xml")
                .putHeader("Content-Length", Integer.toString(xml.length))
                .build())
        .responseBody(AbortableInputStream.create(new ByteArrayInputStream(xml)))
        .build();
  }

  @Override
  public String clientName() {
    return "S3Faults(" + delegate.clientName() + ")";
  }

  @Override
  public void close() {
    delegate.close();
  }
}
