package io.changelake.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The two answers S3Proxy never gives on its own: 409 ConditionalRequestConflict, and a conditional
 * create that succeeded but whose answer was lost, so that the SDK's retry meets the object the
 * first attempt made. An interceptor in the client makes them.
 */
class S3ObjectStoreConditionalCreateTest {

  private static S3ProxyServer server;

  @BeforeAll
  static void start() throws Exception {
    server = S3ProxyServer.startInMemory();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** Turns the next conditional creates into conflicts or lost answers. */
  private static final class ConditionalCreateFaults implements ExecutionInterceptor {
    /** Conflicted attempts write elsewhere: a 409 means S3 did not take the write. */
    private static final String CONFLICTED = "-conflicted";

    final AtomicInteger conflicts = new AtomicInteger();
    final AtomicInteger lostAnswers = new AtomicInteger();

    private static boolean isConditionalCreate(SdkHttpRequest request) {
      return request.method() == SdkHttpMethod.PUT
          && request.firstMatchingHeader("If-None-Match").isPresent();
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(
        Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
      SdkHttpRequest request = context.httpRequest();
      if (isConditionalCreate(request) && conflicts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        return request.toBuilder().encodedPath(request.encodedPath() + CONFLICTED).build();
      }
      return request;
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(
        Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
      SdkHttpResponse response = context.httpResponse();
      SdkHttpRequest request = context.httpRequest();
      if (!isConditionalCreate(request)) {
        return response;
      }
      if (request.encodedPath().endsWith(CONFLICTED)) {
        return response.toBuilder().statusCode(409).statusText("Conflict").build();
      }
      if (response.isSuccessful() && lostAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        return response.toBuilder().statusCode(503).statusText("Service Unavailable").build();
      }
      return response;
    }
  }

  private static S3ObjectStore openStore(String prefix, ConditionalCreateFaults faults) {
    S3Settings settings = server.settings();
    return new S3ObjectStore(
        server.bucket(), prefix, settings, S3ObjectStore.newClient(settings, faults));
  }

  @Test
  void retryMeetingItsOwnLostWriteCountsAsCreated() throws Exception {
    ConditionalCreateFaults faults = new ConditionalCreateFaults();
    try (S3ObjectStore store = openStore("lost-answer", faults)) {
      faults.lostAnswers.set(1);
      assertTrue(store.createIfAbsent("snapshot-1", "commit-a".getBytes(UTF_8)));
      assertEquals(0, faults.lostAnswers.get());

      faults.lostAnswers.set(1);
      assertTrue(store.createIfAbsent("snapshot-2", "commit-a".getBytes(UTF_8)));
      assertFalse(store.createIfAbsent("snapshot-2", "commit-b".getBytes(UTF_8)));
      assertEquals("commit-a", new String(store.read("snapshot-2"), UTF_8));
    }
  }

  @Test
  void conditionalRequestConflictIsRetriedUntilTheCreateLands() throws Exception {
    ConditionalCreateFaults faults = new ConditionalCreateFaults();
    try (S3ObjectStore store = openStore("conflict", faults)) {
      faults.conflicts.set(3);
      assertTrue(store.createIfAbsent("snapshot-1", "commit-a".getBytes(UTF_8)));
      assertEquals(0, faults.conflicts.get());
      assertEquals("commit-a", new String(store.read("snapshot-1"), UTF_8));
    }
  }

  @Test
  void endlessConflictsFailAfterBoundedRetriesNamingTheObject() throws Exception {
    ConditionalCreateFaults faults = new ConditionalCreateFaults();
    try (S3ObjectStore store = openStore("endless-conflict", faults)) {
      faults.conflicts.set(1000);
      IOException e =
          assertThrows(IOException.class, () -> store.createIfAbsent("snapshot-1", new byte[] {1}));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "createIfAbsent of s3://"
                      + server.bucket()
                      + "/endless-conflict/snapshot-1 at "
                      + server.endpoint()),
          e.getMessage());
      assertTrue(e.getMessage().contains("409"), e.getMessage());
      assertTrue(
          1000 - faults.conflicts.get() < 10, "attempts: " + (1000 - faults.conflicts.get()));
      assertFalse(store.exists("snapshot-1"));
    }
  }
}
