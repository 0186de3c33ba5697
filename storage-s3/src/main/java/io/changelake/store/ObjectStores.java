package io.changelake.store;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Opens the object store a table location names.
 *
 * <table>
 *   <caption>Accepted locations</caption>
 *   <tr><th>location</th><th>store</th></tr>
 *   <tr><td>{@code s3://bucket} or {@code s3://bucket/prefix}</td><td>{@link S3ObjectStore}</td></tr>
 *   <tr><td>{@code file:///absolute/path}</td><td>{@link LocalObjectStore}</td></tr>
 *   <tr><td>a local path without scheme, {@code /data/table} or {@code table}</td>
 *       <td>{@link LocalObjectStore}, relative paths against the working directory</td></tr>
 * </table>
 */
public final class ObjectStores {

  private static final String ACCEPTED =
      "use s3://bucket[/prefix], file:///absolute/path or a local path";

  /** A URI scheme; one letter is not one, it is a Windows drive. */
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:");

  private ObjectStores() {}

  /** Opens {@code location} with {@link S3Settings#defaults()} for S3. */
  public static ObjectStore open(String location) throws IOException {
    return open(location, S3Settings.defaults());
  }

  /**
   * Opens the store at {@code location}; the caller closes it.
   *
   * @param s3 how to reach S3, used only for {@code s3://} locations
   * @throws IllegalArgumentException if the location has another form, naming the accepted ones
   * @throws IOException if a local folder cannot be created
   */
  public static ObjectStore open(String location, S3Settings s3) throws IOException {
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException("location is empty: " + ACCEPTED);
    }
    if (location.startsWith("s3://")) {
      String rest = location.substring("s3://".length());
      int slash = rest.indexOf('/');
      String bucket = slash < 0 ? rest : rest.substring(0, slash);
      String prefix = slash < 0 ? "" : rest.substring(slash + 1);
      if (bucket.isEmpty()) {
        throw new IllegalArgumentException(
            "location " + location + " names no bucket: " + ACCEPTED);
      }
      return new S3ObjectStore(bucket, prefix, s3);
    }
    if (location.startsWith("file:")) {
      return new LocalObjectStore(localFolder(location));
    }
    if (SCHEME.matcher(location).find()) {
      throw new IllegalArgumentException("location " + location + " is not supported: " + ACCEPTED);
    }
    return new LocalObjectStore(Path.of(location));
  }

  private static Path localFolder(String location) {
    try {
      return Path.of(URI.create(location));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "location "
              + location
              + " is not an absolute file URI ("
              + e.getMessage()
              + "): "
              + ACCEPTED,
          e);
    }
  }
}
