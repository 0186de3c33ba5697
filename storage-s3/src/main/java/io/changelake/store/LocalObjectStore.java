package io.changelake.store;

import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * An object store on a local (or mounted) file system: the embedded default, {@code file:///...}.
 *
 * <p>Every object is written to a hidden temporary file first and then moved into place, so a
 * reader sees an object whole or not at all. {@link #createIfAbsent} publishes with a hard link,
 * which the operating system creates atomically and refuses when the name exists: it is atomic
 * against writers in other threads and other JVMs on the same file system.
 */
public final class LocalObjectStore implements ObjectStore {

  /** Temporary files start with this; {@link #list} never shows them. */
  static final String TEMP_PREFIX = ".tmp-";

  private final Path root;

  /** A store on the folder {@code root}, which is created if missing. */
  public LocalObjectStore(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    Files.createDirectories(this.root);
  }

  @Override
  public String root() {
    return root.toUri().toString();
  }

  private Path resolve(String path) {
    Path resolved = root.resolve(path).normalize();
    if (!resolved.startsWith(root)) {
      throw new IllegalArgumentException("path " + path + " leaves the store root " + root);
    }
    return resolved;
  }

  @Override
  public byte[] read(String path) throws IOException {
    try {
      return Files.readAllBytes(resolve(path));
    } catch (NoSuchFileException e) {
      throw new ObjectNotFoundException(root(), path);
    }
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    try (FileChannel channel = FileChannel.open(resolve(path), StandardOpenOption.READ)) {
      ByteBuffer buffer = ByteBuffer.allocate(length);
      long position = offset;
      while (buffer.hasRemaining()) {
        int n = channel.read(buffer, position);
        if (n < 0) {
          throw new EOFException(
              path + " ends before byte " + (offset + length) + " (size " + channel.size() + ")");
        }
        position += n;
      }
      return buffer.array();
    } catch (NoSuchFileException e) {
      throw new ObjectNotFoundException(root(), path);
    }
  }

  @Override
  public Optional<ObjectInfo> stat(String path) throws IOException {
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(resolve(path), BasicFileAttributes.class);
      if (!attributes.isRegularFile()) {
        return Optional.empty();
      }
      return Optional.of(
          new ObjectInfo(path, attributes.size(), attributes.lastModifiedTime().toMillis()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  @Override
  public void write(String path, byte[] data) throws IOException {
    Path target = resolve(path);
    Path temp = writeTemp(target, data);
    moveIntoPlace(temp, target);
  }

  @Override
  public OutputStream create(String path) throws IOException {
    Path target = resolve(path);
    Files.createDirectories(target.getParent());
    Path temp = tempFor(target);
    OutputStream out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW);
    return new FilterOutputStream(out) {
      private boolean closed;

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        if (closed) {
          return;
        }
        closed = true;
        out.close();
        moveIntoPlace(temp, target);
      }
    };
  }

  @Override
  public boolean createIfAbsent(String path, byte[] data) throws IOException {
    Path target = resolve(path);
    Path temp = writeTemp(target, data);
    try {
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    while (true) {
      try {
        return walk(prefix);
      } catch (NoSuchFileException vanishedDuringWalk) {
        // Files.walk stats each entry it lists: a temporary file another writer renamed or
        // deleted in between fails the walk, not just that entry. Walk again.
      }
    }
  }

  private List<ObjectInfo> walk(String prefix) throws IOException {
    // Walk from the deepest folder the prefix names; the rest of the prefix filters names.
    int slash = prefix.lastIndexOf('/');
    Path start = slash < 0 ? root : resolve(prefix.substring(0, slash));
    if (!Files.isDirectory(start)) {
      return List.of();
    }
    List<ObjectInfo> objects = new ArrayList<>();
    // A file another writer renames or deletes during the walk (a temp file published, an
    // orphan cleaned) is skipped, not an error: Files.walk would fail the whole listing.
    Files.walkFileTree(
        start,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String relative = root.relativize(file).toString().replace('\\', '/');
            if (attributes.isRegularFile()
                && relative.startsWith(prefix)
                && !file.getFileName().toString().startsWith(TEMP_PREFIX)) {
              objects.add(
                  new ObjectInfo(
                      relative, attributes.size(), attributes.lastModifiedTime().toMillis()));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    objects.sort(Comparator.comparing(ObjectInfo::path));
    return objects;
  }

  @Override
  public void delete(String path) throws IOException {
    Files.deleteIfExists(resolve(path));
  }

  @Override
  public void close() {}

  private Path writeTemp(Path target, byte[] data) throws IOException {
    Files.createDirectories(target.getParent());
    Path temp = tempFor(target);
    Files.write(temp, data, StandardOpenOption.CREATE_NEW);
    return temp;
  }

  private static Path tempFor(Path target) {
    return target.resolveSibling(TEMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
  }

  private static void moveIntoPlace(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Override
  public String toString() {
    return "LocalObjectStore[" + root + "]";
  }
}
