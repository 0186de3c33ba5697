package io.changelake.templates;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The templates by name, as {@code ./changelake run <name>} and the metadata files know them: each
 * with its Options interface and its metadata JSON ({@code /templates/<name>.json} on the class
 * path).
 */
public enum TemplateCatalog {
  CDC_TO_TABLE(
      "cdc-to-table", CdcToTable.Options.class, o -> CdcToTable.run((CdcToTable.Options) o)),
  CHANGELOG_TO_AGGREGATE(
      "changelog-to-aggregate",
      ChangelogToAggregate.Options.class,
      o -> ChangelogToAggregate.run((ChangelogToAggregate.Options) o)),
  CDC_TO_AGGREGATE(
      "cdc-to-aggregate",
      CdcToAggregate.Options.class,
      o -> CdcToAggregate.run((CdcToAggregate.Options) o)),
  COMPACT_TABLE(
      "compact-table",
      CompactionJob.Options.class,
      o -> CompactionJob.run((CompactionJob.Options) o));

  private final String templateName;
  private final Class<? extends PipelineOptions> optionsType;

  // Each launcher is a stateless lambda over a template's static run method.
  @SuppressWarnings("ImmutableEnumChecker")
  private final Function<PipelineOptions, PipelineResult> launcher;

  TemplateCatalog(
      String templateName,
      Class<? extends PipelineOptions> optionsType,
      Function<PipelineOptions, PipelineResult> launcher) {
    this.templateName = templateName;
    this.optionsType = optionsType;
    this.launcher = launcher;
  }

  /** The template called {@code name}, or whose class is (as {@code CdcToTable}). */
  public static TemplateCatalog named(String name) {
    for (TemplateCatalog t : values()) {
      if (t.templateName.equals(name)
          || t.optionsType.getEnclosingClass().getSimpleName().equals(name)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "no template '"
            + name
            + "': use one of "
            + Arrays.stream(values()).map(t -> t.templateName).collect(Collectors.joining(", ")));
  }

  public String templateName() {
    return templateName;
  }

  public Class<? extends PipelineOptions> optionsType() {
    return optionsType;
  }

  /** The class path resource of the template's metadata JSON. */
  public String metadataResource() {
    return "/templates/" + templateName + ".json";
  }

  /**
   * Parses {@code --option=value} arguments and starts the template on the runner they name (the
   * DirectRunner when none is named).
   *
   * @throws IllegalArgumentException for an unknown or wrong option, before anything runs
   */
  public PipelineResult run(String... args) {
    return launcher.apply(PipelineOptionsFactory.fromArgs(args).withValidation().as(optionsType));
  }
}
