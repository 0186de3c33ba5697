package io.changelake.it.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.ObjectStore;
import io.changelake.templates.TemplateCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The CDC-to-aggregate check run against each S3 server: two runs (two commits), the second
 * correcting, deleting and moving what the first wrote, with the lookup producer; the table and the
 * aggregate are checked row by row.
 */
final class CdcToAggregateCheck {

  private CdcToAggregateCheck() {}

  static void run(String warehouse, List<String> s3, Path local, Callable<ObjectStore> store)
      throws Exception {
    Path first =
        new OrderEvents()
            .create(1001, 10, 100)
            .create(1002, 20, 50)
            .create(1003, 20, 70)
            .create(1004, 30, 5)
            .writeTo(local.resolve("agg-in/1.json"));
    Path second =
        new OrderEvents()
            .update(1001, 10, 100, 80)
            .delete(1002, 20, 50)
            .update(1003, 20, 70, 75)
            .create(1005, 10, 20)
            .writeTo(local.resolve("agg-in/2.json"));
    int run = 0;
    for (Path input : List.of(first, second)) {
      List<String> args =
          new ArrayList<>(
              TemplatesIT.cdcOptions(
                  warehouse, input, local.resolve("agg-dead/" + ++run), "lookup"));
      args.addAll(TemplatesIT.aggregateOptions());
      args.addAll(s3);
      TemplateRun.run(TemplateCatalog.CDC_TO_AGGREGATE, args);
    }
    try (ObjectStore opened = store.call()) {
      assertEquals(
          List.of("[1001, 10, 80]", "[1003, 20, 75]", "[1004, 30, 5]", "[1005, 10, 20]"),
          TemplateRun.rows(opened, "orders"));
      assertEquals(
          List.of("[10, 100, 2]", "[20, 75, 1]", "[30, 5, 1]"),
          TemplateRun.rows(opened, "store_totals"));
    }
  }
}
