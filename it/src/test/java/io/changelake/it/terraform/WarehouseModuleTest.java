package io.changelake.it.terraform;

import static io.changelake.it.terraform.Hcl.blocks;
import static io.changelake.it.terraform.Hcl.map;
import static io.changelake.it.terraform.Hcl.statements;
import static io.changelake.it.terraform.Hcl.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.changelake.it.terraform.Hcl.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The security properties of terraform/modules/warehouse, read from the source with hcl4j since no
 * terraform binary (nor the AWS provider) can be relied on in CI.
 */
class WarehouseModuleTest {
  // hcl4j keeps references it cannot resolve as their source text; these are the texts of the
  // bucket ARN and of the objects under the warehouse prefix, as iam.tf spells them.
  private static final String BUCKET_ARN = "aws_s3_bucket.this.arn";
  private static final String WAREHOUSE_OBJECTS = "aws_s3_bucket.this.arn/local.prefix/*";
  private static final String WAREHOUSE_LIST_PREFIX = "local.prefix/*";

  private static final Path MODULE = Hcl.moduleDir();

  private static Map<String, Object> main() {
    return Hcl.parse(MODULE.resolve("main.tf"));
  }

  private static Map<String, Object> iam() {
    return Hcl.parse(MODULE.resolve("iam.tf"));
  }

  private static Map<String, Object> resource(Map<String, Object> file, String type, String name) {
    return map(file, "resource", type, name);
  }

  private static Map<String, Object> policyDocument(Map<String, Object> file, String name) {
    return map(file, "data", "aws_iam_policy_document", name);
  }

  @Test
  void everyTerraformFileParses() {
    List<Path> files = Hcl.allTfFiles();
    assertTrue(files.size() >= 8, "expected the module and the example, found " + files);
    for (Path file : files) {
      assertFalse(Hcl.parse(file).isEmpty(), file + " parsed to nothing");
    }
  }

  @Test
  void publicAccessIsBlockedWithAllFourFlags() {
    Map<String, Object> block = resource(main(), "aws_s3_bucket_public_access_block", "this");
    assertEquals("aws_s3_bucket.this.id", block.get("bucket"));
    for (String flag :
        List.of(
            "block_public_acls",
            "block_public_policy",
            "ignore_public_acls",
            "restrict_public_buckets")) {
      assertEquals(Boolean.TRUE, block.get(flag), flag);
    }
  }

  @Test
  void aclsAreDisabledSoOnlyPoliciesGrantAccess() {
    Map<String, Object> ownership = resource(main(), "aws_s3_bucket_ownership_controls", "this");
    assertEquals("BucketOwnerEnforced", map(ownership, "rule").get("object_ownership"));
  }

  @Test
  void bucketPolicyDeniesEveryRequestWithoutTls() {
    Map<String, Object> main = main();
    assertEquals(
        "data.aws_iam_policy_document.bucket.json",
        resource(main, "aws_s3_bucket_policy", "this").get("policy"));
    List<Statement> denies =
        statements(policyDocument(main, "bucket")).stream()
            .filter(s -> "Deny".equals(s.body().get("effect")))
            .filter(
                s ->
                    s.conditions().stream()
                        .anyMatch(
                            c ->
                                "Bool".equals(c.get("test"))
                                    && "aws:SecureTransport".equals(c.get("variable"))
                                    && strings(c, "values").equals(List.of("false"))))
            .toList();
    assertEquals(1, denies.size(), "one Deny on aws:SecureTransport = false");
    Statement deny = denies.get(0);
    assertEquals(List.of("s3:*"), deny.actions());
    // Both the bucket and every object in it, for every principal.
    assertEquals(Set.of(BUCKET_ARN, BUCKET_ARN + "/*"), Set.copyOf(deny.resources()));
    Map<String, Object> principals = map(deny.body(), "principals");
    assertEquals("*", principals.get("type"));
    assertEquals(List.of("*"), strings(principals, "identifiers"));
  }

  @Test
  void bucketPolicyOnlyDenies() {
    // A bucket policy that allowed anything could open the bucket past the IAM policies.
    for (Statement s : statements(policyDocument(main(), "bucket"))) {
      assertEquals("Deny", s.body().get("effect"), s.toString());
    }
  }

  @Test
  void versioningIsEnabled() {
    Map<String, Object> versioning = resource(main(), "aws_s3_bucket_versioning", "this");
    assertEquals("Enabled", map(versioning, "versioning_configuration").get("status"));
  }

  @Test
  void sseS3IsTheDefaultEncryption() {
    Map<String, Object> defaults = Hcl.variableDefaults(MODULE.resolve("variables.tf"));
    assertEquals("SSE-S3", defaults.get("encryption"));
    Map<String, Object> rule =
        map(
            resource(
                Hcl.parse(MODULE.resolve("main.tf"), defaults),
                "aws_s3_bucket_server_side_encryption_configuration",
                "this"),
            "rule");
    assertEquals(
        "AES256", map(rule, "apply_server_side_encryption_by_default").get("sse_algorithm"));
  }

  @Test
  void sseKmsUsesTheGivenKeyWithABucketKey() {
    String key = "arn:aws:kms:eu-west-1:111122223333:key/0a1b2c3d-test";
    Map<String, Object> variables =
        new HashMap<>(Hcl.variableDefaults(MODULE.resolve("variables.tf")));
    variables.put("encryption", "SSE-KMS");
    variables.put("kms_key_arn", key);
    Map<String, Object> rule =
        map(
            resource(
                Hcl.parse(MODULE.resolve("main.tf"), variables),
                "aws_s3_bucket_server_side_encryption_configuration",
                "this"),
            "rule");
    Map<String, Object> byDefault = map(rule, "apply_server_side_encryption_by_default");
    assertEquals("aws:kms", byDefault.get("sse_algorithm"));
    assertEquals(key, byDefault.get("kms_master_key_id"));
    assertEquals(Boolean.TRUE, rule.get("bucket_key_enabled"));
  }

  @Test
  void aKeyCreatedForSseKmsRotates() {
    Map<String, Object> key = resource(main(), "aws_kms_key", "this");
    assertTrue(key.containsKey("count"), "the key is created only when needed");
    assertEquals(Boolean.TRUE, key.get("enable_key_rotation"));
  }

  @Test
  void lifecycleAbortsIncompleteMultipartUploadsAndExpiresNoncurrentVersions() {
    Map<String, Object> lifecycle =
        resource(main(), "aws_s3_bucket_lifecycle_configuration", "this");
    List<Map<String, Object>> rules = blocks(lifecycle, "rule");
    boolean aborts = false;
    boolean expires = false;
    for (Map<String, Object> rule : rules) {
      assertEquals("Enabled", rule.get("status"), String.valueOf(rule.get("id")));
      // An empty filter applies the rule to the whole bucket.
      assertEquals(Map.of(), rule.get("filter"), String.valueOf(rule.get("id")));
      if (rule.containsKey("abort_incomplete_multipart_upload")) {
        assertEquals(
            "var.abort_incomplete_multipart_upload_days",
            map(rule, "abort_incomplete_multipart_upload").get("days_after_initiation"));
        aborts = true;
      }
      if (rule.containsKey("noncurrent_version_expiration")) {
        assertEquals(
            "var.noncurrent_version_expiration_days",
            map(rule, "noncurrent_version_expiration").get("noncurrent_days"));
        expires = true;
      }
    }
    assertTrue(aborts, "a rule aborts incomplete multipart uploads");
    assertTrue(expires, "a rule expires noncurrent versions");
  }

  @Test
  void accessLoggingIsOptional() {
    Map<String, Object> logging = resource(main(), "aws_s3_bucket_logging", "this");
    assertTrue(logging.containsKey("count"));
    assertEquals("var.access_log_bucket", logging.get("target_bucket"));
  }

  @Test
  void workerPolicyHasNoWildcardAction() {
    for (Statement s : statements(policyDocument(iam(), "worker"))) {
      if (!s.allows()) {
        continue;
      }
      assertFalse(s.body().containsKey("not_actions"), s.sid());
      for (String action : s.actions()) {
        assertFalse(action.contains("*") || action.contains("?"), s.sid() + ": " + action);
      }
    }
  }

  @Test
  void workerPolicyGrantsNothingOutsideTheWarehousePrefix() {
    // local.prefix, which the policies use, is the validated variable itself.
    assertEquals("var.warehouse_prefix", map(main(), "locals").get("prefix"));
    assertOnlyWarehouseResources(statements(policyDocument(iam(), "worker")));
  }

  @Test
  void warehousePrefixValidationRejectsWhatWouldWidenTheGrants() throws Exception {
    // hcl4j does not evaluate regex(), so take the pattern from the source and run it here;
    // the pattern uses only syntax that RE2 (terraform) and java.util.regex read alike.
    String text = Files.readString(MODULE.resolve("variables.tf"));
    String block = text.substring(text.indexOf("variable \"warehouse_prefix\""));
    Matcher m =
        Pattern.compile("regex\\(\"((?:[^\"\\\\]|\\\\.)*)\", var\\.warehouse_prefix\\)")
            .matcher(block);
    assertTrue(m.find(), "warehouse_prefix is validated with regex()");
    Pattern valid = Pattern.compile(m.group(1).replace("\\\\", "\\"));
    for (String ok : List.of("warehouse", "tables/prod", "team-a/lake_1", "v1.0")) {
      assertTrue(valid.matcher(ok).matches(), ok);
    }
    // Empty would be the whole bucket, wildcards are IAM wildcards, slashes at the ends or doubled
    // would make "<prefix>/*" name a different place, and ".." segments read like a parent.
    for (String bad :
        List.of("", "/", "/warehouse", "warehouse/", "a//b", "*", "ware*", "a?", "../x", "a/./b")) {
      assertFalse(valid.matcher(bad).matches(), "accepted \"" + bad + "\"");
    }
  }

  @Test
  void workerPolicyGrantsWhatTheTableNeeds() {
    Set<String> allowed =
        statements(policyDocument(iam(), "worker")).stream()
            .filter(Statement::allows)
            .flatMap(s -> s.actions().stream())
            .collect(Collectors.toSet());
    // Commits are PutObject with If-None-Match: *, large files are multipart uploads, and
    // expiry and orphan cleaning delete; the SSE-KMS statement is there for KMS buckets.
    for (String needed :
        List.of(
            "s3:GetObject",
            "s3:PutObject",
            "s3:DeleteObject",
            "s3:ListBucket",
            "s3:AbortMultipartUpload",
            "s3:ListMultipartUploadParts",
            "kms:GenerateDataKey",
            "kms:Decrypt")) {
      assertTrue(allowed.contains(needed), needed);
    }
  }

  @Test
  void workerCannotDeleteVersionsSoVersioningCanUndoABadRun() {
    List<Statement> worker = statements(policyDocument(iam(), "worker"));
    for (Statement s : worker) {
      if (s.allows()) {
        assertFalse(s.actions().contains("s3:DeleteObjectVersion"), s.sid());
      }
    }
    assertTrue(
        worker.stream()
            .anyMatch(
                s ->
                    !s.allows()
                        && s.actions()
                            .containsAll(
                                List.of(
                                    "s3:DeleteObjectVersion",
                                    "s3:PutBucketVersioning",
                                    "s3:PutLifecycleConfiguration"))
                        && s.resources().containsAll(List.of(BUCKET_ARN, BUCKET_ARN + "/*"))),
        "an explicit Deny of version deletes and of turning versioning or lifecycle off");
  }

  @Test
  void workerPolicyIsAttachedToTheWorkerRole() {
    Map<String, Object> iam = iam();
    assertEquals(
        "data.aws_iam_policy_document.worker.json",
        resource(iam, "aws_iam_policy", "worker").get("policy"));
    Map<String, Object> attachment = resource(iam, "aws_iam_role_policy_attachment", "worker");
    assertEquals("aws_iam_role.worker.name", attachment.get("role"));
    assertEquals("aws_iam_policy.worker.arn", attachment.get("policy_arn"));
  }

  @Test
  void readerPolicyGrantsNoWriteOrDelete() {
    Map<String, Object> iam = iam();
    assertEquals(
        "data.aws_iam_policy_document.reader.json",
        resource(iam, "aws_iam_policy", "reader").get("policy"));
    List<Statement> reader = statements(policyDocument(iam, "reader"));
    for (Statement s : reader) {
      assertTrue(s.allows(), s.sid());
      for (String action : s.actions()) {
        assertTrue(
            Set.of("s3:GetObject", "s3:ListBucket", "kms:Decrypt").contains(action),
            s.sid() + " grants " + action + ", which is not read-only");
      }
    }
    assertOnlyWarehouseResources(reader);
  }

  @Test
  void workerRoleTrustsNoWildcardPrincipal() {
    Map<String, Object> iam = iam();
    assertEquals(
        "data.aws_iam_policy_document.worker_assume.json",
        resource(iam, "aws_iam_role", "worker").get("assume_role_policy"));
    List<Statement> trust = statements(policyDocument(iam, "worker_assume"));
    assertFalse(trust.isEmpty());
    for (Statement s : trust) {
      Map<String, Object> principals = map(s.body(), "principals");
      assertFalse("*".equals(principals.get("type")), s.sid());
      assertFalse(strings(principals, "identifiers").contains("*"), s.sid());
    }
    // The lists behind the principals reject wildcards themselves.
    Map<String, Object> variables = map(Hcl.parse(MODULE.resolve("variables.tf")), "variable");
    for (String name : List.of("worker_trusted_services", "worker_trusted_role_arns")) {
      assertTrue(map(variables, name).containsKey("validation"), name);
    }
  }

  @Test
  void everyVariableIsDescribedAndTheKeyOnesAreValidated() {
    for (Path dir : List.of(MODULE, Hcl.exampleDir())) {
      Map<String, Object> variables = map(Hcl.parse(dir.resolve("variables.tf")), "variable");
      variables.forEach(
          (name, body) -> {
            Map<?, ?> v = (Map<?, ?>) body;
            assertTrue(v.get("description") instanceof String d && !d.isBlank(), dir + " " + name);
            assertTrue(v.containsKey("type"), dir + " " + name + " has no type");
          });
    }
    Map<String, Object> module = map(Hcl.parse(MODULE.resolve("variables.tf")), "variable");
    for (String name :
        List.of(
            "bucket_name",
            "warehouse_prefix",
            "encryption",
            "kms_key_arn",
            "noncurrent_version_expiration_days",
            "abort_incomplete_multipart_upload_days",
            "access_log_bucket")) {
      Map<String, Object> validation = map(module, name, "validation");
      assertTrue(validation.containsKey("condition"), name);
      assertTrue(validation.get("error_message") instanceof String m && !m.isBlank(), name);
    }
  }

  @Test
  void outputsMapOneToOneOntoThePipelineSettings() {
    Map<String, Object> outputs = map(Hcl.parse(MODULE.resolve("outputs.tf")), "output");
    for (String name :
        List.of(
            "bucket_name",
            "bucket_arn",
            "warehouse_prefix",
            "warehouse_uri",
            "region",
            "endpoint_override",
            "path_style_access",
            "worker_role_arn",
            "worker_role_name",
            "worker_policy_arn",
            "reader_policy_arn",
            "kms_key_arn")) {
      Map<String, Object> output = map(outputs, name);
      assertTrue(output.get("description") instanceof String d && !d.isBlank(), name);
      assertTrue(output.containsKey("value"), name);
    }
    // --warehouse is s3://<bucket>/<prefix>, the same prefix the policies grant.
    assertEquals(
        "s3://aws_s3_bucket.this.id/local.prefix", map(outputs, "warehouse_uri").get("value"));
    assertEquals("aws_s3_bucket.this.region", map(outputs, "region").get("value"));
    assertEquals(Boolean.FALSE, map(outputs, "path_style_access").get("value"));
    assertEquals(null, map(outputs, "endpoint_override").get("value"));
  }

  @Test
  void exampleWiresTheModuleAndPrintsTheWarehouseValue() throws Exception {
    Path example = Hcl.exampleDir();
    Map<String, Object> main = Hcl.parse(example.resolve("main.tf"));
    Map<String, Object> module = map(main, "module", "warehouse");
    String source = String.valueOf(module.get("source"));
    assertTrue(Files.isDirectory(example.resolve(source).normalize()), source);
    assertEquals("var.region", map(main, "provider", "aws").get("region"));

    Map<String, Object> outputs = map(Hcl.parse(example.resolve("outputs.tf")), "output");
    assertEquals("module.warehouse.warehouse_uri", map(outputs, "warehouse").get("value"));
    assertEquals("module.warehouse.region", map(outputs, "region").get("value"));
    // Every module output the example prints exists in the module.
    Map<String, Object> moduleOutputs = map(Hcl.parse(MODULE.resolve("outputs.tf")), "output");
    outputs.forEach(
        (name, body) -> {
          String value = String.valueOf(((Map<?, ?>) body).get("value"));
          for (String part : value.split("[ =]")) {
            if (part.startsWith("module.warehouse.")) {
              assertTrue(
                  moduleOutputs.containsKey(part.substring("module.warehouse.".length())), part);
            }
          }
        });
    // Every variable the example passes exists in the module.
    Map<String, Object> moduleVariables =
        map(Hcl.parse(MODULE.resolve("variables.tf")), "variable");
    for (String argument : module.keySet()) {
      if (!argument.equals("source")) {
        assertTrue(moduleVariables.containsKey(argument), argument);
      }
    }
  }

  /**
   * Each Allow statement may name only: the objects under the warehouse prefix; the bucket itself
   * for s3:ListBucket when an s3:prefix condition keeps the listing under the prefix; or the
   * warehouse KMS key, for kms: actions, through a dynamic statement over local.kms_key_arn.
   */
  private static void assertOnlyWarehouseResources(List<Statement> statements) {
    for (Statement s : statements) {
      if (!s.allows()) {
        continue;
      }
      assertFalse(s.body().containsKey("not_resources"), s.sid());
      assertFalse(s.resources().isEmpty(), s.sid() + " has no resources, which means all");
      for (String resource : s.resources()) {
        if (resource.equals(WAREHOUSE_OBJECTS)) {
          assertTrue(s.actions().stream().allMatch(a -> a.startsWith("s3:")), s.sid());
        } else if (resource.equals(BUCKET_ARN)) {
          assertEquals(List.of("s3:ListBucket"), s.actions(), s.sid());
          assertListIsUnderThePrefix(s);
        } else if (resource.equals("statement.value") && s.dynamic()) {
          assertEquals(List.of("local.kms_key_arn"), s.forEach(), s.sid());
          assertTrue(s.actions().stream().allMatch(a -> a.startsWith("kms:")), s.sid());
        } else {
          fail(s.sid() + " grants on " + resource + ", outside the warehouse prefix");
        }
      }
    }
  }

  private static void assertListIsUnderThePrefix(Statement s) {
    List<Map<String, Object>> conditions = s.conditions();
    assertTrue(
        conditions.stream()
            .anyMatch(
                c ->
                    "StringLike".equals(c.get("test"))
                        && "s3:prefix".equals(c.get("variable"))
                        && strings(c, "values").equals(List.of(WAREHOUSE_LIST_PREFIX))),
        s.sid() + " lists the bucket without an s3:prefix condition on the warehouse prefix");
  }
}
