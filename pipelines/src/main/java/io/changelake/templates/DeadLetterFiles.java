package io.changelake.templates;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * The dead-letter output of a template: files {@code dead-letters-*.json} under {@code
 * --deadLetterDir}, one JSON line per bad event or refused row, {@code {"reason": ..., "event":
 * ...}}, where {@code event} is the raw event text (or, for a row the table refused, the row as
 * JSON). A batch run with no dead letters leaves an empty file. In streaming, a file per minute.
 */
final class DeadLetterFiles extends PTransform<PCollectionList<String>, PDone> {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String folder;

  DeadLetterFiles(String folder) {
    this.folder = folder;
  }

  /** One dead-letter line. */
  static String line(String reason, String event) {
    ObjectNode node = JSON.createObjectNode().put("reason", reason).put("event", event);
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree of two strings did not print", e);
    }
  }

  /** The rows a table write refused, as dead-letter lines. */
  static PCollection<String> refusedRows(String name, PCollection<BadRecord> refused) {
    return refused.apply(
        name,
        MapElements.into(TypeDescriptors.strings())
            .via(
                bad ->
                    line(
                        bad.getFailure().getDescription() + ": " + bad.getFailure().getException(),
                        bad.getRecord().getHumanReadableJsonRecord())));
  }

  @Override
  public PDone expand(PCollectionList<String> letters) {
    PCollection<String> all = letters.apply("AllDeadLetters", Flatten.pCollections());
    TextIO.Write files =
        TextIO.write()
            .to(folder.endsWith("/") ? folder + "dead-letters" : folder + "/dead-letters")
            .withSuffix(".json");
    if (all.isBounded() == PCollection.IsBounded.BOUNDED) {
      return all.apply("WriteDeadLetters", files);
    }
    // An unbounded input needs windows to know when a file is complete.
    return all.apply("MinuteWindows", Window.into(FixedWindows.of(Duration.standardMinutes(1))))
        .apply("WriteDeadLetters", files.withWindowedWrites().withNumShards(1));
  }
}
