package io.changelake.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalObjectStoreTest extends ObjectStoreContractTest {

  @TempDir Path folder;

  @Override
  ObjectStore newStore() throws Exception {
    return new LocalObjectStore(folder.resolve("store"));
  }

  @Test
  void listNeverShowsTemporaryFilesOfUnfinishedStreams() throws Exception {
    try (var out = store.create("data/file")) {
      out.write(1);
      assertEquals(List.of(), store.list(""));
      assertTrue(Files.list(folder.resolve("store/data")).findAny().isPresent());
    }
    assertEquals(1, store.list("").size());
  }

  @Test
  void createIfAbsentHasExactlyOneWinnerPerPathAcrossJvms() throws Exception {
    int contenders = 4;
    int paths = CreateIfAbsentContender.PATHS;
    Path root = folder.resolve("shared");
    Path go = folder.resolve("go");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<Process> processes = new ArrayList<>();
    List<BufferedReader> outputs = new ArrayList<>();
    try {
      for (int c = 0; c < contenders; c++) {
        Process process =
            new ProcessBuilder(
                    java,
                    "-cp",
                    System.getProperty("java.class.path"),
                    CreateIfAbsentContender.class.getName(),
                    root.toString(),
                    go.toString(),
                    "jvm-" + c)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        processes.add(process);
        outputs.add(new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8)));
      }
      // Start together, so that the JVMs' attempts on each path overlap.
      for (BufferedReader output : outputs) {
        assertEquals(CreateIfAbsentContender.READY, output.readLine());
      }
      Files.createFile(go);

      ObjectStore shared = new LocalObjectStore(root);
      Map<String, List<String>> winnersByPath = new HashMap<>();
      for (int c = 0; c < contenders; c++) {
        assertTrue(processes.get(c).waitFor(60, TimeUnit.SECONDS), "jvm-" + c + " did not finish");
        assertEquals(0, processes.get(c).exitValue(), "jvm-" + c + " failed");
        for (String path; (path = outputs.get(c).readLine()) != null; ) {
          winnersByPath.computeIfAbsent(path, p -> new ArrayList<>()).add("jvm-" + c);
        }
      }
      assertEquals(paths, winnersByPath.size(), "paths with a winner: " + winnersByPath.keySet());
      for (Map.Entry<String, List<String>> entry : winnersByPath.entrySet()) {
        assertEquals(1, entry.getValue().size(), entry.getKey() + " won by " + entry.getValue());
        assertEquals(entry.getValue().get(0), new String(shared.read(entry.getKey()), UTF_8));
      }
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
  }
}
