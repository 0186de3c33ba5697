package io.changelake.templates;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The first records of the topics a {@link KafkaSource} names, read once at launch to learn the
 * columns (from a schema envelope), the primary key (from a record key) and, in the database mode,
 * the source table of each topic. A short-lived consumer, assigned to the partitions (it joins no
 * group) from their beginning, commits nothing and waits at most the timeout given.
 */
final class FirstRecords {

  /** A record's key (null if it has none) and value, as the topic holds them. */
  record FirstRecord(String key, String value) {}

  private FirstRecords() {}

  /**
   * The first event of any of the topics.
   *
   * @throws IllegalArgumentException if the topics hold none (read to their end, or within {@code
   *     timeout})
   */
  static FirstRecord ofAnyTopic(KafkaSource source, Duration timeout) {
    for (Optional<FirstRecord> first : read(source, timeout, value -> true, false).values()) {
      if (first.isPresent()) {
        return first.get();
      }
    }
    throw new IllegalArgumentException(
        "no event is in the topics (read to their end, waiting at most "
            + timeout.toSeconds()
            + " s) to read the columns and the key from");
  }

  /**
   * Per topic the source names, its first record (in some partition) whose value {@code wanted}
   * accepts, or empty if it has none: none once every partition of the topic is read to the end it
   * had at the start, or once {@code timeout} has passed.
   */
  static Map<String, Optional<FirstRecord>> ofEachTopic(
      KafkaSource source, Duration timeout, Predicate<String> wanted) {
    return read(source, timeout, wanted, true);
  }

  private static Map<String, Optional<FirstRecord>> read(
      KafkaSource source, Duration timeout, Predicate<String> wanted, boolean eachTopic) {
    Map<String, Optional<FirstRecord>> found = new TreeMap<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            source.consumerConfig(false), new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = source.partitions(consumer, timeout);
      partitions.forEach(p -> found.put(p.topic(), Optional.empty()));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
      Set<String> open = new HashSet<>(found.keySet());
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!open.isEmpty() && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          if (open.contains(record.topic())
              && record.value() != null
              && wanted.test(record.value())) {
            found.put(record.topic(), Optional.of(new FirstRecord(record.key(), record.value())));
            open.remove(record.topic());
            if (!eachTopic) {
              return found;
            }
          }
        }
        // A topic read to its end holds no such record yet: no need to wait for one.
        open.removeIf(
            topic ->
                partitions.stream()
                    .filter(p -> p.topic().equals(topic))
                    .allMatch(p -> consumer.position(p, timeout) >= ends.get(p)));
      }
    }
    return found;
  }
}
