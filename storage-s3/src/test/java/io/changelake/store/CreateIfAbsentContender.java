package io.changelake.store;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One contender of {@link LocalObjectStoreTest#createIfAbsentHasExactlyOneWinnerPerPathAcrossJvms}
 * in its own JVM: says {@value #READY}, waits for the go file, tries to create each of {@value
 * #PATHS} paths with its name as content, and prints each path it won.
 *
 * <p>Arguments: store root, go file, contender name.
 */
final class CreateIfAbsentContender {

  static final String READY = "ready";
  static final int PATHS = 50;

  private CreateIfAbsentContender() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    Path go = Path.of(args[1]);
    byte[] name = args[2].getBytes(UTF_8);
    try (ObjectStore store = new LocalObjectStore(root)) {
      System.out.println(READY);
      System.out.flush();
      while (!Files.exists(go)) {
        Thread.sleep(1);
      }
      for (int i = 0; i < PATHS; i++) {
        String path = "snapshot/snapshot-" + i;
        if (store.createIfAbsent(path, name)) {
          System.out.println(path);
        }
      }
    }
  }
}
