package io.changelake.it.templates;

import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The CDC-to-aggregate check against LocalStack's S3; skipped where Docker is missing. */
@Testcontainers(disabledWithoutDocker = true)
class LocalStackCdcToAggregateIT {

  @Container
  static final LocalStackContainer LOCALSTACK =
      new LocalStackContainer(DockerImageName.parse("localstack/localstack:4.0.3"))
          .withServices(LocalStackContainer.Service.S3);

  @TempDir Path local;

  @Test
  void cdcToAggregateRetractsAcrossCommits() throws Exception {
    URI endpoint = LOCALSTACK.getEndpointOverride(LocalStackContainer.Service.S3);
    String bucket = "changelake-templates";
    try (S3Client client =
        S3Client.builder()
            .endpointOverride(endpoint)
            .region(Region.of(LOCALSTACK.getRegion()))
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(
                        LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey())))
            .build()) {
      client.createBucket(b -> b.bucket(bucket));
    }
    S3Settings settings =
        S3Settings.builder()
            .endpoint(endpoint)
            .region(LOCALSTACK.getRegion())
            .pathStyleAccess(true)
            .staticCredentials(LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey())
            .build();
    String warehouse = "s3://" + bucket + "/warehouse";
    CdcToAggregateCheck.run(
        warehouse,
        List.of(
            "--s3Endpoint=" + endpoint,
            "--s3PathStyleAccess=true",
            "--s3Region=" + LOCALSTACK.getRegion(),
            "--s3AccessKeyId=" + LOCALSTACK.getAccessKey(),
            "--s3SecretAccessKey=" + LOCALSTACK.getSecretKey()),
        local,
        () -> ObjectStores.open(warehouse, settings));
  }
}
