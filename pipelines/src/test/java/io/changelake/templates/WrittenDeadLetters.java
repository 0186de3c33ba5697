package io.changelake.templates;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Test fixture: the dead letters a template run wrote under its dead-letter folder. */
public final class WrittenDeadLetters {

  private WrittenDeadLetters() {}

  /** Every line of every file under {@code folder}, sorted. */
  public static List<String> sortedLines(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      List<String> lines = new ArrayList<>();
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        lines.addAll(Files.readAllLines(f));
      }
      return lines.stream().sorted().toList();
    }
  }
}
