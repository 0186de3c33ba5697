package io.changelake.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the S3 store fails: fast, saying where, and never showing a secret. */
class S3ObjectStoreFailureTest {

  private static final String SECRET = S3ProxyServer.SECRET_ACCESS_KEY;

  /** One call on a store, expected to fail. */
  private interface StoreCall {
    void run(ObjectStore store) throws Exception;
  }

  /** Every operation, each made to reach the service. */
  private static Map<String, StoreCall> everyOperation() {
    Map<String, StoreCall> calls = new LinkedHashMap<>();
    calls.put("read", s -> s.read("a/object"));
    calls.put("readRange", s -> s.readRange("a/object", 5, 10));
    calls.put("stat", s -> s.stat("a/object"));
    calls.put("write", s -> s.write("a/object", new byte[10]));
    calls.put(
        "create small",
        s -> {
          try (OutputStream out = s.create("a/object")) {
            out.write(1);
          }
        });
    calls.put(
        "create multipart",
        s -> {
          try (OutputStream out = s.create("a/object")) {
            out.write(new byte[ObjectStoreContractTest.PART + 1]);
          }
        });
    calls.put("createIfAbsent", s -> s.createIfAbsent("a/object", new byte[10]));
    calls.put("list", s -> s.list("a/"));
    calls.put("delete", s -> s.delete("a/object"));
    return calls;
  }

  private static S3Settings refusingEndpoint() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    return S3Settings.builder()
        .endpoint(URI.create("http://127.0.0.1:" + port))
        .region("us-east-1")
        .pathStyleAccess(true)
        .staticCredentials(S3ProxyServer.ACCESS_KEY_ID, SECRET)
        .maxAttempts(2)
        .apiCallTimeout(Duration.ofSeconds(10))
        .build();
  }

  /** Message, causes, suppressed exceptions and stack: everything a log would show. */
  private static String everythingShown(Throwable failure) {
    StringWriter text = new StringWriter();
    failure.printStackTrace(new PrintWriter(text));
    return text.toString();
  }

  @Test
  void refusedEndpointFailsFastWithMessageNamingEndpointAndObject() throws Exception {
    S3Settings settings = refusingEndpoint();
    String endpoint = settings.endpoint().orElseThrow().toString();
    try (S3ObjectStore store = new S3ObjectStore("refusing-bucket", "table", settings)) {
      long start = System.nanoTime();
      IOException e = assertThrows(IOException.class, () -> store.read("snapshot/LATEST"));
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "took " + took);
      assertTrue(
          e.getMessage()
              .startsWith(
                  "read of s3://refusing-bucket/table/snapshot/LATEST at "
                      + endpoint
                      + " failed: "),
          e.getMessage());
      assertFalse(everythingShown(e).contains(SECRET));
    }
  }

  @Test
  void everyOperationFailingOnRefusedEndpointNamesItWithoutTheSecret() throws Exception {
    S3Settings settings = refusingEndpoint();
    try (S3ObjectStore store = new S3ObjectStore("refusing-bucket", "", settings)) {
      assertFailuresKeepTheSecret(store, settings.endpoint().orElseThrow().toString());
    }
  }

  @Test
  void everyOperationRejectedForAWrongSecretFailsWithoutShowingEitherSecret() throws Exception {
    try (S3ProxyServer server = S3ProxyServer.startInMemory()) {
      String wrongSecret = "wrong-" + SECRET;
      S3Settings settings =
          server.settings().toBuilder()
              .staticCredentials(S3ProxyServer.ACCESS_KEY_ID, wrongSecret)
              .multipartPartSize(ObjectStoreContractTest.PART)
              .build();
      assertFalse(settings.toString().contains(wrongSecret), settings.toString());
      try (S3ObjectStore store = server.openStore("table", settings)) {
        assertFailuresKeepTheSecret(store, server.endpoint().toString());
      }
    }
  }

  private static void assertFailuresKeepTheSecret(ObjectStore store, String endpoint) {
    everyOperation()
        .forEach(
            (operation, call) -> {
              IOException e =
                  assertThrows(IOException.class, () -> call.run(store), operation + " succeeded");
              assertNotNull(e.getMessage(), operation);
              assertTrue(
                  e.getMessage().contains(endpoint),
                  operation + " does not name " + endpoint + ": " + e.getMessage());
              assertFalse(everythingShown(e).contains(SECRET), operation + " shows the secret");
            });
  }
}
