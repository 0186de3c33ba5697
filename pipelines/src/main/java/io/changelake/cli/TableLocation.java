package io.changelake.cli;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options that name an existing table, shared by every command that reads one: where the
 * warehouse is, the database and table, and how to reach S3. Credentials always come from the AWS
 * SDK's default chain (environment, profile, instance role), so no secret is typed on a command
 * line or lands in a shell history.
 */
final class TableLocation {

  @Option(
      names = "--warehouse",
      required = true,
      paramLabel = "LOCATION",
      description = "The warehouse: s3://bucket[/prefix], file:///absolute/path or a local path.")
  String warehouse;

  @Option(
      names = "--database",
      defaultValue = "default",
      paramLabel = "DB",
      description =
          "The database: the folder <DB>.db in the warehouse" + " (default: ${DEFAULT-VALUE}).")
  String database;

  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "The table.")
  String table;

  @Option(
      names = "--s3-endpoint",
      paramLabel = "URI",
      description = "S3 service URI, for MinIO, LocalStack, S3Proxy or a VPC endpoint.")
  URI s3Endpoint;

  @Option(
      names = "--s3-region",
      paramLabel = "REGION",
      description = "S3 signing region (default: aws.region / AWS_REGION, else us-east-1).")
  String s3Region;

  @Option(
      names = "--s3-path-style",
      description =
          "Address buckets in the path (endpoint/bucket/key); most S3-compatible"
              + " services need it.")
  boolean s3PathStyle;

  /**
   * Opens the warehouse's store; the caller closes it.
   *
   * @throws IllegalArgumentException if a local warehouse does not exist, since opening it would
   *     create an empty folder where a typo points
   */
  ObjectStore openStore() throws IOException {
    if (!warehouse.startsWith("s3://")) {
      Path folder =
          warehouse.startsWith("file:") ? Path.of(URI.create(warehouse)) : Path.of(warehouse);
      if (!Files.isDirectory(folder)) {
        throw new IllegalArgumentException(
            "the warehouse " + warehouse + " is not a folder: check --warehouse");
      }
    }
    S3Settings.Builder s3 = S3Settings.builder().pathStyleAccess(s3PathStyle);
    if (s3Endpoint != null) {
      s3.endpoint(s3Endpoint);
    }
    if (s3Region != null) {
      s3.region(s3Region);
    }
    return ObjectStores.open(warehouse, s3.build());
  }

  /**
   * Opens the named table in {@code store}.
   *
   * @throws io.changelake.table.TableNotFoundException naming the location when there is none
   */
  Table open(ObjectStore store) throws IOException {
    return Table.open(store, new TablePath(database, table));
  }
}
