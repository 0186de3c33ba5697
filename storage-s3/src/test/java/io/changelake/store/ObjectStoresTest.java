package io.changelake.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectStoresTest {

  @TempDir Path folder;

  @Test
  void fileUriAndPlainPathOpenTheSameLocalStore() throws Exception {
    Path table = folder.resolve("table");
    try (ObjectStore byUri = ObjectStores.open(table.toUri().toString());
        ObjectStore byPath = ObjectStores.open(table.toString())) {
      assertInstanceOf(LocalObjectStore.class, byUri);
      byUri.write("x", new byte[] {1});
      assertEquals(byUri.root(), byPath.root());
      assertTrue(byPath.exists("x"));
    }
  }

  @Test
  void s3LocationOpensAnS3StoreOnBucketAndPrefix() throws Exception {
    S3Settings settings = S3Settings.builder().region("us-east-1").build();
    try (ObjectStore store = ObjectStores.open("s3://my-bucket/warehouse/orders/", settings)) {
      assertInstanceOf(S3ObjectStore.class, store);
      assertEquals("s3://my-bucket/warehouse/orders/", store.root());
    }
    try (ObjectStore store = ObjectStores.open("s3://my-bucket", settings)) {
      assertEquals("s3://my-bucket/", store.root());
    }
  }

  private static void assertRejected(String location, String... phrases) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ObjectStores.open(location));
    for (String phrase : phrases) {
      assertTrue(e.getMessage().contains(phrase), e.getMessage());
    }
  }

  @Test
  void otherLocationsAreRejectedNamingTheAcceptedForms() {
    for (String location : new String[] {"hdfs://nn/table", "s3a://bucket/table", "gs://b/t"}) {
      assertRejected(location, location, "s3://bucket[/prefix]", "file:///absolute/path");
    }
    assertRejected("file://host/table", "file://host/table", "file:///absolute/path");
    assertRejected("s3://", "names no bucket");
    assertRejected("s3://Bad_Bucket/t", "Bad_Bucket", "3 to 63 lowercase");
    assertRejected("", "s3://bucket[/prefix]");
  }
}
