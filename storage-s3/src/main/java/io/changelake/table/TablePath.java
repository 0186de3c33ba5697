package io.changelake.table;

import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Where each file of a table lives, relative to the warehouse root, in Paimon's layout:
 *
 * <pre>
 * &lt;database&gt;.db/&lt;table&gt;/schema/schema-&lt;n&gt;
 *                      snapshot/snapshot-&lt;id&gt;, LATEST, EARLIEST
 *                      changelog/changelog-&lt;id&gt;, LATEST, EARLIEST (expired snapshots whose
 *                          changelog outlives them)
 *                      manifest/manifest-*, manifest-list-*, index-manifest-*
 *                      index/index-* (hash indexes of a dynamic-bucket table)
 *                      consumer/consumer-&lt;id&gt;
 *                      tag/tag-&lt;name&gt;
 *                      &lt;k&gt;=&lt;v&gt;/.../bucket-&lt;b&gt;/data-*.parquet, changelog-*.parquet
 * </pre>
 *
 * <p>Partition folders are named as Paimon names them (its legacy partition names, the default):
 * the value's plain text, a DATE as its day number, special characters escaped as {@code %XX}, a
 * null value as {@code partition.default-name}. Paimon finds data files from these names, so they
 * must match exactly.
 *
 * @param database the database name
 * @param table the table name
 */
public record TablePath(String database, String table) {

  public TablePath {
    checkName(database, "database");
    checkName(table, "table");
  }

  private static void checkName(String name, String what) {
    if (name == null || name.isEmpty() || name.contains("/") || name.startsWith(".")) {
      throw new IllegalArgumentException(
          "the "
              + what
              + " name '"
              + name
              + "' is not usable: use a non-empty name without '/'"
              + " that does not start with '.'");
    }
  }

  /** The table's folder, ending in {@code /}. */
  public String root() {
    return database + ".db/" + table + "/";
  }

  public String schemaFolder() {
    return root() + "schema/";
  }

  public String snapshotFolder() {
    return root() + "snapshot/";
  }

  public String changelogFolder() {
    return root() + "changelog/";
  }

  public String manifestFolder() {
    return root() + "manifest/";
  }

  public String consumerFolder() {
    return root() + "consumer/";
  }

  public String tagFolder() {
    return root() + "tag/";
  }

  /** The folder of a dynamic-bucket table's hash index files, ending in {@code /}. */
  public String indexFolder() {
    return root() + "index/";
  }

  /** The folder of a bucket's data and changelog files, ending in {@code /}. */
  public String bucketFolder(String partitionPath, int bucket) {
    return root() + partitionPath + "bucket-" + bucket + "/";
  }

  /**
   * The partition folder of a row's partition values ({@code k=v/k2=v2/}), or empty for an
   * unpartitioned table.
   */
  public static String partitionPath(RowType partitionType, Object[] values, String defaultName) {
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < partitionType.size(); i++) {
      String text =
          values[i] == null ? null : partitionText(partitionType.type(i).root(), values[i]);
      if (text == null || text.isBlank()) {
        text = defaultName;
      }
      path.append(escape(partitionType.field(i).name()))
          .append('=')
          .append(escape(text))
          .append('/');
    }
    return path.toString();
  }

  private static String partitionText(TypeRoot root, Object value) {
    switch (root) {
      case DATE:
        return Long.toString(((LocalDate) value).toEpochDay());
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case TIMESTAMP:
        return ((LocalDateTime) value).toString();
      case TIMESTAMP_LTZ:
        return LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC).toString();
      case BINARY:
      case VARBINARY:
        throw new IllegalArgumentException("a binary column cannot be a partition key");
      default:
        return value.toString();
    }
  }

  private static String escape(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (needsEscaping(c)) {
        if (out == null) {
          out = new StringBuilder(text.length() + 8).append(text, 0, i);
        }
        out.append('%').append(String.format("%02X", (int) c));
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? text : out.toString();
  }

  private static boolean needsEscaping(char c) {
    return c < ' ' || c == 0x7F || "\"#%'*/:=?\\{}[]^".indexOf(c) >= 0;
  }
}
