package io.changelake.table;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changelake.schema.Json;
import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress of a table's changelog readers: {@code consumer/consumer-<id>}, holding {@code
 * {"nextSnapshot": n}} exactly as Paimon's {@code Consumer} writes it, so Paimon jobs and
 * changelake pipelines see each other's consumers.
 *
 * <p>A consumer records the next snapshot it has yet to read; {@link SnapshotExpiry} never removes
 * that snapshot or a later one. A consumer that is abandoned must be deleted, or it holds every
 * snapshot from its position on forever; with {@code consumer.expiration-time} set, expiry deletes
 * consumers that have not recorded progress for that long.
 */
public final class Consumers {

  private static final Logger LOG = LoggerFactory.getLogger(Consumers.class);

  private static final String PREFIX = "consumer-";
  private static final String NEXT_SNAPSHOT = "nextSnapshot";

  private final ObjectStore store;
  private final String folder;

  Consumers(ObjectStore store, TablePath path) {
    this.store = store;
    this.folder = path.consumerFolder();
  }

  /** The path of a consumer's file, relative to the store root. */
  public String path(String consumerId) {
    checkId(consumerId);
    return folder + PREFIX + consumerId;
  }

  /** The next snapshot the consumer has to read, or empty if it recorded none. */
  public OptionalLong nextSnapshot(String consumerId) throws IOException {
    String file = path(consumerId);
    byte[] bytes;
    try {
      bytes = store.read(file);
    } catch (ObjectNotFoundException absent) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(
        Json.required(Json.read(bytes, store.root() + file), NEXT_SNAPSHOT, store.root() + file)
            .asLong());
  }

  /**
   * Records that the consumer's next snapshot is {@code nextSnapshot}: every snapshot before it is
   * read. Replaces what the consumer recorded before.
   */
  public void record(String consumerId, long nextSnapshot) throws IOException {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put(NEXT_SNAPSHOT, nextSnapshot);
    store.write(path(consumerId), Json.write(node));
  }

  /** Removes the consumer, releasing the snapshots it held; absent consumers are ignored. */
  public void delete(String consumerId) throws IOException {
    store.delete(path(consumerId));
  }

  /** Every consumer and its next snapshot, by id. */
  public Map<String, Long> list() throws IOException {
    Map<String, Long> consumers = new TreeMap<>();
    for (ObjectInfo info : store.list(folder + PREFIX)) {
      String id = info.path().substring(folder.length() + PREFIX.length());
      if (id.contains("/")) {
        continue;
      }
      // A consumer deleted between the listing and the read holds nothing back.
      nextSnapshot(id).ifPresent(next -> consumers.put(id, next));
    }
    return consumers;
  }

  /**
   * Removes every consumer whose file was last written before {@code olderThanMillis}: Paimon's
   * {@code consumer.expiration-time}, which frees the snapshots an abandoned reader held.
   *
   * @return the ids removed
   */
  public List<String> expire(long olderThanMillis) throws IOException {
    List<String> removed = new ArrayList<>();
    for (ObjectInfo info : store.list(folder + PREFIX)) {
      String id = info.path().substring(folder.length() + PREFIX.length());
      if (!id.contains("/") && info.lastModifiedMillis() < olderThanMillis) {
        store.delete(info.path());
        removed.add(id);
      }
    }
    if (!removed.isEmpty()) {
      LOG.info("removed consumers {} of {}: idle beyond consumer.expiration-time", removed, folder);
    }
    return removed;
  }

  /** The smallest next snapshot of any consumer: the oldest snapshot some consumer needs. */
  public OptionalLong minNextSnapshot() throws IOException {
    return list().values().stream().mapToLong(Long::longValue).min();
  }

  static void checkId(String consumerId) {
    if (consumerId == null
        || consumerId.isBlank()
        || consumerId.contains("/")
        || consumerId.startsWith(".")) {
      throw new IllegalArgumentException(
          "consumer id '"
              + consumerId
              + "' is not usable: use a non-empty name without '/' that"
              + " does not start with '.'");
    }
  }
}
