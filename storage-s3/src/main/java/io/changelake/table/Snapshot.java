package io.changelake.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changelake.schema.Json;
import java.io.IOException;

/**
 * One committed version of a table: the file {@code snapshot/snapshot-<id>}, in Paimon 1.x's JSON
 * form.
 *
 * <p>The base manifest list names every live file as of the previous snapshot; the delta list what
 * this snapshot added and removed; the changelog list the changelog files it produced (null when
 * none).
 *
 * @param id the snapshot id: 1, 2, 3, ... without gaps
 * @param schemaId the schema the commit was written with
 * @param baseManifestList the manifest list of the files live before this snapshot
 * @param baseManifestListSize its size in bytes (null if unknown)
 * @param deltaManifestList the manifest list of this snapshot's changes
 * @param deltaManifestListSize its size in bytes (null if unknown)
 * @param changelogManifestList the manifest list of this snapshot's changelog files, or null
 * @param changelogManifestListSize its size in bytes, or null
 * @param commitUser who committed: one id per writing job
 * @param commitIdentifier the committer's own number for the commit; with the user, it makes a
 *     retried commit recognisable
 * @param commitKind what produced the snapshot
 * @param timeMillis when it was committed, epoch milliseconds
 * @param totalRecordCount the records in all live data files
 * @param deltaRecordCount records added minus records removed by this snapshot
 * @param changelogRecordCount records in this snapshot's changelog files
 * @param watermark the writer's watermark, or null
 */
public record Snapshot(
    long id,
    long schemaId,
    String baseManifestList,
    Long baseManifestListSize,
    String deltaManifestList,
    Long deltaManifestListSize,
    String changelogManifestList,
    Long changelogManifestListSize,
    String commitUser,
    long commitIdentifier,
    CommitKind commitKind,
    long timeMillis,
    long totalRecordCount,
    long deltaRecordCount,
    long changelogRecordCount,
    Long watermark) {

  /** The snapshot version Paimon 1.x writes. */
  static final int VERSION = 3;

  /** The JSON Paimon writes, field for field. */
  public byte[] toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("version", VERSION);
    node.put("id", id);
    node.put("schemaId", schemaId);
    node.put("baseManifestList", baseManifestList);
    node.put("baseManifestListSize", baseManifestListSize);
    node.put("deltaManifestList", deltaManifestList);
    node.put("deltaManifestListSize", deltaManifestListSize);
    node.put("changelogManifestList", changelogManifestList);
    if (changelogManifestListSize != null) {
      node.put("changelogManifestListSize", changelogManifestListSize);
    }
    node.put("commitUser", commitUser);
    node.put("commitIdentifier", commitIdentifier);
    node.put("commitKind", commitKind.name());
    node.put("timeMillis", timeMillis);
    node.putObject("logOffsets");
    node.put("totalRecordCount", totalRecordCount);
    node.put("deltaRecordCount", deltaRecordCount);
    node.put("changelogRecordCount", changelogRecordCount);
    if (watermark != null) {
      node.put("watermark", watermark);
    }
    node.put("nextRowId", 0L);
    return Json.write(node);
  }

  /**
   * Parses a snapshot file.
   *
   * @param file the file's path, named in errors
   * @throws IOException naming the file and the field if it is not a snapshot
   */
  public static Snapshot fromJson(byte[] bytes, String file) throws IOException {
    JsonNode n = Json.read(bytes, file);
    String kind = Json.required(n, "commitKind", file).asText();
    CommitKind commitKind;
    try {
      commitKind = CommitKind.valueOf(kind);
    } catch (IllegalArgumentException e) {
      throw new IOException(file + " has an unknown commitKind '" + kind + "'");
    }
    return new Snapshot(
        Json.required(n, "id", file).asLong(),
        Json.required(n, "schemaId", file).asLong(),
        Json.required(n, "baseManifestList", file).asText(),
        Json.longOrNull(n, "baseManifestListSize"),
        Json.required(n, "deltaManifestList", file).asText(),
        Json.longOrNull(n, "deltaManifestListSize"),
        Json.text(n, "changelogManifestList"),
        Json.longOrNull(n, "changelogManifestListSize"),
        Json.required(n, "commitUser", file).asText(),
        Json.required(n, "commitIdentifier", file).asLong(),
        commitKind,
        Json.required(n, "timeMillis", file).asLong(),
        n.path("totalRecordCount").asLong(0),
        n.path("deltaRecordCount").asLong(0),
        n.path("changelogRecordCount").asLong(0),
        Json.longOrNull(n, "watermark"));
  }
}
