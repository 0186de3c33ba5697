package io.changelake.cli;

import io.changelake.templates.TemplateCatalog;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** Runs a template pipeline with Beam's {@code --option=value} arguments and waits for its end. */
@Command(
    name = "run",
    description = {
      "Runs a template: cdc-to-table, changelog-to-aggregate, cdc-to-aggregate or compact-table."
          + " Options are the"
          + " template's pipeline options, --name=value; the runner is the DirectRunner unless"
          + " --runner names another on the class path.",
      "`run TEMPLATE --help` lists the template's options."
    })
final class RunTemplateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "TEMPLATE",
      description = "cdc-to-table, changelog-to-aggregate, cdc-to-aggregate or compact-table.")
  String template;

  @Option(
      names = {"-h", "--help"},
      description = "This help, or with TEMPLATE its options.")
  boolean help;

  @Unmatched List<String> options = new ArrayList<>();

  @Override
  public Integer call() {
    if (template == null) {
      spec.commandLine().usage(System.out);
      return help ? 0 : 2;
    }
    TemplateCatalog catalog = TemplateCatalog.named(template);
    if (help) {
      PrintStream out = System.out;
      PipelineOptionsFactory.printHelp(out, catalog.optionsType());
      return 0;
    }
    PipelineResult.State state = catalog.run(options.toArray(String[]::new)).waitUntilFinish();
    System.out.println("template " + template + " ended: " + state);
    return state == PipelineResult.State.DONE ? 0 : 1;
  }
}
