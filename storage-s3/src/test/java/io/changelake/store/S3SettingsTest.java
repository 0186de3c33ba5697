package io.changelake.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class S3SettingsTest {

  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final String TOKEN = "FwoGZXIvYXdzEXAMPLETOKEN";

  @Test
  void defaultsUseTheCredentialChainAndEightMiBParts() {
    S3Settings defaults = S3Settings.defaults();
    assertFalse(defaults.hasStaticCredentials());
    assertEquals(Optional.empty(), defaults.endpoint());
    assertEquals(Optional.empty(), defaults.region());
    assertFalse(defaults.pathStyleAccess());
    assertEquals(8L << 20, defaults.multipartPartSize());
    assertEquals(5, defaults.maxAttempts());
    assertEquals(Duration.ofMinutes(2), defaults.apiCallTimeout());
  }

  @Test
  void toStringShowsTheKeyIdButNeitherSecretNorToken() {
    S3Settings settings =
        S3Settings.builder()
            .endpoint(URI.create("http://127.0.0.1:9000"))
            .staticCredentials("AKIAEXAMPLE", SECRET, TOKEN)
            .build();
    String text = settings.toString();
    assertTrue(text.contains("AKIAEXAMPLE"), text);
    assertTrue(text.contains("http://127.0.0.1:9000"), text);
    assertFalse(text.contains(SECRET), text);
    assertFalse(text.contains(TOKEN), text);
  }

  @Test
  void toBuilderKeepsEverySettingAndSerializationToo() throws Exception {
    S3Settings settings =
        S3Settings.builder()
            .endpoint(URI.create("https://s3.example.com"))
            .region("eu-west-1")
            .pathStyleAccess(true)
            .staticCredentials("AKIAEXAMPLE", SECRET)
            .maxAttempts(7)
            .multipartPartSize(16L << 20)
            .apiCallTimeout(Duration.ofSeconds(30))
            .build();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(settings);
    }
    S3Settings copy;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (S3Settings) in.readObject();
    }
    for (S3Settings same : new S3Settings[] {settings.toBuilder().build(), copy}) {
      assertEquals(settings.toString(), same.toString());
      assertEquals(SECRET, same.secretAccessKey());
    }
  }

  private static void assertRejected(S3Settings.Builder builder, String... phrases) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
    for (String phrase : phrases) {
      assertTrue(e.getMessage().contains(phrase), e.getMessage());
    }
    assertFalse(e.getMessage().contains(SECRET), e.getMessage());
  }

  @Test
  void invalidSettingsAreRejectedNamingTheSettingAndTheFix() {
    assertRejected(
        S3Settings.builder().endpoint(URI.create("ftp://host")), "endpoint ftp://host", "http://");
    assertRejected(S3Settings.builder().region(" "), "region", "us-east-1");
    assertRejected(
        S3Settings.builder().staticCredentials("AKIAEXAMPLE", null),
        "AKIAEXAMPLE",
        "secret",
        "defaultCredentials()");
    assertRejected(
        S3Settings.builder().staticCredentials(null, SECRET),
        "access key id",
        "defaultCredentials()");
    assertRejected(S3Settings.builder().maxAttempts(0), "maxAttempts is 0", "1");
    assertRejected(S3Settings.builder().multipartPartSize(1 << 20), "multipartPartSize", "5 MiB");
    assertRejected(
        S3Settings.builder().apiCallTimeout(Duration.ZERO), "apiCallTimeout", "positive");
  }
}
