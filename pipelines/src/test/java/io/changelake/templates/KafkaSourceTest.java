package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka options: checked before anything runs, and their secrets shown nowhere. */
class KafkaSourceTest {

  @TempDir Path folder;

  private static CdcToTable.Options options(String... kafka) {
    List<String> args = new ArrayList<>(List.of(kafka));
    args.addAll(
        List.of(
            "--warehouse=/tmp/lake",
            "--table=orders",
            "--primaryKeys=order_id",
            "--columns=order_id:BIGINT",
            "--deadLetterDir=/tmp/dead"));
    return PipelineOptionsFactory.fromArgs(args.toArray(String[]::new))
        .as(CdcToTable.Options.class);
  }

  @Test
  void secretsNeverShowInTheOptionsTheDisplayDataOrMessages() throws Exception {
    Path file =
        Files.writeString(folder.resolve("kafka.properties"), "ssl.keystore.password=hunter3\n");
    CdcToTable.Options options =
        options(
            "--bootstrapServers=localhost:9092",
            "--topics=pg.shop.orders",
            "--consumerGroup=g",
            "--kafkaPropertiesFile=" + file,
            "--kafkaProperties=security.protocol=SASL_SSL;sasl.mechanism=PLAIN;"
                + "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule"
                + " required username=\"u\" password=\"hunter2\";max.poll.records=50");
    KafkaSource source = KafkaSource.of(options);
    assertEquals(
        "security.protocol=*****;sasl.mechanism=*****;sasl.jaas.config=*****;max.poll.records=50",
        options.getKafkaProperties());

    List<String> shown = new ArrayList<>();
    shown.add(options.toString());
    shown.add(DisplayData.from(options).toString());
    shown.add(source.toString());
    Pipeline pipeline = Pipeline.create(options);
    pipeline.apply(source.read());
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            if (node.getTransform() != null) {
              shown.add(DisplayData.from(node.getTransform()).toString());
            }
            return CompositeBehavior.ENTER_TRANSFORM;
          }

          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            shown.add(DisplayData.from(node.getTransform()).toString());
          }
        });
    String all = String.join("\n", shown);
    assertTrue(all.contains("pg.shop.orders"), all);
    assertFalse(all.contains("hunter2"), all);
    assertFalse(all.contains("hunter3"), all);
    assertFalse(all.contains("PlainLoginModule"), all);
  }

  @Test
  void badKafkaOptionsFailBeforeTheRunNamingTheOption() {
    assertRefused(
        "--bootstrapServers=kafka is not valid",
        "--bootstrapServers=kafka",
        "--topics=t",
        "--consumerGroup=g");
    assertRefused("--topics or --topicPattern", "--bootstrapServers=k:9092", "--consumerGroup=g");
    assertRefused(
        "--topics or --topicPattern",
        "--bootstrapServers=k:9092",
        "--topics=t",
        "--topicPattern=t.*",
        "--consumerGroup=g");
    assertRefused(
        "--topicPattern=( is not valid",
        "--bootstrapServers=k:9092",
        "--topicPattern=(",
        "--consumerGroup=g");
    assertRefused("--consumerGroup is missing", "--bootstrapServers=k:9092", "--topics=t");
    assertRefused(
        "--startingOffsets=yesterday is not valid",
        "--bootstrapServers=k:9092",
        "--topics=t",
        "--consumerGroup=g",
        "--startingOffsets=yesterday");
    assertRefused(
        "Kafka property 'group.id' is set by the template",
        "--bootstrapServers=k:9092",
        "--topics=t",
        "--consumerGroup=g",
        "--kafkaProperties=group.id=x");
    assertRefused("--topics needs --bootstrapServers", "--topics=t");
    assertRefused(
        "--kafkaPropertiesFile=/no/such/file is not valid",
        "--bootstrapServers=k:9092",
        "--topics=t",
        "--consumerGroup=g",
        "--kafkaPropertiesFile=/no/such/file");
    IllegalArgumentException noEquals =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                KafkaSource.of(
                    options(
                        "--bootstrapServers=k:9092",
                        "--topics=t",
                        "--consumerGroup=g",
                        "--kafkaProperties=sasl.password-hunter4")));
    assertFalse(noEquals.getMessage().contains("hunter4"), noEquals.getMessage());
  }

  private static void assertRefused(String message, String... kafka) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> KafkaSource.of(options(kafka)));
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
  }

  /**
   * The runner encodes KafkaIO's checkpoint marks whenever it checkpoints the read (Dataflow
   * always, the DirectRunner when it resumes a reader): with the Avro on our class path their coder
   * must work. Avro 1.12.2 refuses the mark's class as "not trusted", which failed the CDC
   * templates.
   */
  @Test
  void kafkaCheckpointMarksSurviveTheirCoder() throws Exception {
    // The coder KafkaIO's unbounded source gives its marks (KafkaUnboundedSource).
    org.apache.beam.sdk.coders.Coder<org.apache.beam.sdk.io.kafka.KafkaCheckpointMark> coder =
        org.apache.beam.sdk.extensions.avro.coders.AvroCoder.of(
            org.apache.beam.sdk.io.kafka.KafkaCheckpointMark.class);
    org.apache.beam.sdk.io.kafka.KafkaCheckpointMark mark =
        new org.apache.beam.sdk.io.kafka.KafkaCheckpointMark(
            List.of(
                new org.apache.beam.sdk.io.kafka.KafkaCheckpointMark.PartitionMark(
                    "pg.shop.orders", 1, 42L, 1_764_596_700_000L)),
            java.util.Optional.empty());
    org.apache.beam.sdk.io.kafka.KafkaCheckpointMark copy =
        org.apache.beam.sdk.util.CoderUtils.clone(coder, mark);
    assertEquals(42L, copy.getPartitions().get(0).getNextOffset());
    assertEquals(1, copy.getPartitions().get(0).getPartition());
  }
}
