package io.changelake.table;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.changelake.schema.Json;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/**
 * One committed version of a table: the file {@code snapshot/snapshot-<id>}, in Paimon 1.x's JSON
 * form.
 *
 * <p>The base manifest list names every live file as of the previous snapshot; the delta list what
 * this snapshot added and removed; the changelog list the changelog files it produced (null when
 * none).
 *
 * <p>The JSON is bound by Jackson to this record: its components in Paimon's field order, with
 * Paimon's constant fields ({@code version}, the empty {@code logOffsets}, {@code nextRowId} 0)
 * written and ignored on reading, as are fields Paimon adds that changelake does not use.
 *
 * @param id the snapshot id: 1, 2, 3, ... without gaps
 * @param schemaId the schema the commit was written with
 * @param baseManifestList the manifest list of the files live before this snapshot
 * @param baseManifestListSize its size in bytes (null if unknown)
 * @param deltaManifestList the manifest list of this snapshot's changes
 * @param deltaManifestListSize its size in bytes (null if unknown)
 * @param changelogManifestList the manifest list of this snapshot's changelog files, or null
 * @param changelogManifestListSize its size in bytes, or null
 * @param indexManifest the index manifest naming every live index file (a dynamic-bucket table's
 *     hash indexes), or null when the table has none; snapshots that change no index share it
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
@JsonPropertyOrder({
  "version",
  "id",
  "schemaId",
  "baseManifestList",
  "baseManifestListSize",
  "deltaManifestList",
  "deltaManifestListSize",
  "changelogManifestList",
  "changelogManifestListSize",
  "indexManifest",
  "commitUser",
  "commitIdentifier",
  "commitKind",
  "timeMillis",
  "logOffsets",
  "totalRecordCount",
  "deltaRecordCount",
  "changelogRecordCount",
  "watermark",
  "nextRowId"
})
@JsonIgnoreProperties(
    value = {"version", "logOffsets", "nextRowId"},
    allowGetters = true,
    ignoreUnknown = true)
public record Snapshot(
    @JsonProperty(required = true) long id,
    @JsonProperty(required = true) long schemaId,
    @JsonProperty(required = true) String baseManifestList,
    Long baseManifestListSize,
    @JsonProperty(required = true) String deltaManifestList,
    Long deltaManifestListSize,
    String changelogManifestList,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long changelogManifestListSize,
    @JsonInclude(JsonInclude.Include.NON_NULL) String indexManifest,
    @JsonProperty(required = true) String commitUser,
    @JsonProperty(required = true) long commitIdentifier,
    @JsonProperty(required = true) CommitKind commitKind,
    @JsonProperty(required = true) long timeMillis,
    long totalRecordCount,
    long deltaRecordCount,
    long changelogRecordCount,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long watermark) {

  /** The snapshot version Paimon 1.x writes. */
  static final int VERSION = 3;

  /**
   * @throws NullPointerException naming the field if a manifest list, the commit user or the commit
   *     kind is null
   */
  public Snapshot {
    Objects.requireNonNull(baseManifestList, "no baseManifestList");
    Objects.requireNonNull(deltaManifestList, "no deltaManifestList");
    Objects.requireNonNull(commitUser, "no commitUser");
    Objects.requireNonNull(commitKind, "no commitKind");
  }

  @JsonProperty("version")
  private int version() {
    return VERSION;
  }

  /** Paimon's offsets of a log system, which changelake has not: always empty. */
  @JsonProperty("logOffsets")
  private Map<Integer, Long> logOffsets() {
    return Map.of();
  }

  /** Paimon's row-tracking counter, off for primary-key tables: always 0. */
  @JsonProperty("nextRowId")
  private long nextRowId() {
    return 0L;
  }

  /** The JSON Paimon writes, field for field. */
  public byte[] toJson() {
    return Json.write(this);
  }

  /**
   * Parses a snapshot file.
   *
   * @param file the file's path, named in errors
   * @throws IOException naming the file and the field if it is not a snapshot
   */
  public static Snapshot fromJson(byte[] bytes, String file) throws IOException {
    return Json.read(bytes, Snapshot.class, "a snapshot", file);
  }
}
