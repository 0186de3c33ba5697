package io.changelake.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The JSON of schema, snapshot and consumer files: Jackson's pretty form, as Paimon writes it.
 * Schema and snapshot files are bound to records by their Jackson annotations; consumer files are
 * read and written as trees.
 */
public final class Json {

  public static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  /** Prints a tree, or a record bound by its Jackson annotations. */
  public static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsString(value).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "a " + value.getClass().getSimpleName() + " failed to print", e);
    }
  }

  /**
   * Parses a file's bytes into a record bound by its Jackson annotations.
   *
   * @param what what the file should be, named in errors: "a snapshot"
   * @throws IOException naming the file, and the field when one is missing or of the wrong kind
   */
  public static <T> T read(byte[] bytes, Class<T> type, String what, String file)
      throws IOException {
    // Through the tree, so that bytes that are not JSON fail as such, not as a missing field.
    JsonNode tree = read(bytes, file);
    try {
      return MAPPER.treeToValue(tree, type);
    } catch (ValueInstantiationException e) {
      // The record's own check refused the values: its message names the field.
      Throwable refused = e.getCause() == null ? e : e.getCause();
      throw new IOException(file + " is not " + what + ": " + refused.getMessage(), e);
    } catch (JsonProcessingException e) {
      throw new IOException(file + " is not " + what + ": " + e.getOriginalMessage(), e);
    }
  }

  /** Parses a file's bytes, naming the file when they are not JSON. */
  public static JsonNode read(byte[] bytes, String file) throws IOException {
    try {
      JsonNode node = MAPPER.readTree(bytes);
      if (node == null || !node.isObject()) {
        throw new IOException(file + " is not a JSON object");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new IOException(file + " is not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** A required field, failing with the file and field named. */
  public static JsonNode required(JsonNode node, String field, String file) throws IOException {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new IOException(file + " has no '" + field + "'");
    }
    return value;
  }
}
