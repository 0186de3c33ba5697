package io.changelake.it.dataflow;

import com.google.api.services.dataflow.model.DataflowPackage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.dataflow.options.DataflowPipelineOptions;
import org.apache.beam.runners.dataflow.util.PackageUtil;
import org.apache.beam.runners.dataflow.util.Stager;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * A Dataflow {@link Stager} that stages into a local folder, the job's {@code --stagingLocation},
 * instead of uploading to Cloud Storage: what DataflowRunner would upload (the class path files and
 * the portable pipeline proto, {@code pipeline.pb}) lands there for a test to read. Chosen with
 * {@code --stagerClass}; DataflowRunner builds it through {@link #fromOptions}.
 */
public final class LocalFolderStager implements Stager {

  private final Path folder;

  private LocalFolderStager(Path folder) {
    this.folder = folder;
  }

  /** The factory method DataflowRunner's stager factory calls. */
  public static LocalFolderStager fromOptions(PipelineOptions options) {
    String location = options.as(DataflowPipelineOptions.class).getStagingLocation();
    if (location == null || !location.startsWith("/")) {
      throw new IllegalArgumentException(
          "--stagingLocation must be a local folder for LocalFolderStager, got " + location);
    }
    return new LocalFolderStager(Path.of(location));
  }

  @Override
  public List<DataflowPackage> stageFiles(List<PackageUtil.StagedFile> filesToStage) {
    List<DataflowPackage> packages = new ArrayList<>();
    for (PackageUtil.StagedFile file : filesToStage) {
      Path target = folder.resolve(file.getDestination());
      try {
        Files.createDirectories(folder);
        Files.copy(Path.of(file.getSource()), target, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      packages.add(
          new DataflowPackage().setName(file.getDestination()).setLocation(target.toString()));
    }
    return packages;
  }

  @Override
  public DataflowPackage stageToFile(byte[] bytes, String baseName) {
    Path target = folder.resolve(baseName);
    try {
      Files.createDirectories(folder);
      Files.write(target, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new DataflowPackage().setName(baseName).setLocation(target.toString());
  }
}
