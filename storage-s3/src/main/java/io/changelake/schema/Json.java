package io.changelake.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The JSON of schema, snapshot and consumer files: Jackson's pretty form, as Paimon writes it. */
public final class Json {

  public static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  public static byte[] write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree failed to print", e);
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

  /** A text field or null. */
  public static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  /** A long field or null. */
  public static Long longOrNull(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asLong();
  }
}
