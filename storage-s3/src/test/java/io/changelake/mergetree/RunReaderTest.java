package io.changelake.mergetree;

import static io.changelake.mergetree.Bucket.file;
import static io.changelake.mergetree.Bucket.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.changelake.format.DataFileMeta;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class RunReaderTest {

  private final DataFileMeta first = file("first", 1, 10, 1, 2);
  private final DataFileMeta empty = file("empty", 1, 10, 3, 3);
  private final DataFileMeta second = file("second", 1, 10, 4, 5);
  private final Map<String, List<KeyValue>> contents =
      Map.of(
          "first", List.of(row(1, 1, RowKind.INSERT, 0), row(2, 2, RowKind.INSERT, 0)),
          "empty", List.of(),
          "second", List.of(row(4, 3, RowKind.INSERT, 0), row(5, 4, RowKind.INSERT, 0)));
  private final List<String> events = new ArrayList<>();

  @Test
  void readsTheFilesInTurnOpeningEachOnlyWhenThePreviousIsExhaustedAndClosingIt()
      throws IOException {
    RunReader<FakeFile> reader = new RunReader<>(List.of(first, empty, second), this::open);
    assertEquals(List.of(), events);

    List<Object> keys = new ArrayList<>();
    keys.add(reader.next().key()[0]);
    assertEquals(List.of("open first"), events);
    keys.add(reader.next().key()[0]);
    keys.add(reader.next().key()[0]);
    assertEquals(
        List.of("open first", "close first", "open empty", "close empty", "open second"), events);
    keys.add(reader.next().key()[0]);
    assertFalse(reader.hasNext());

    assertEquals(List.of(1L, 2L, 4L, 5L), keys);
    assertEquals("close second", events.get(events.size() - 1));
    assertThrows(NoSuchElementException.class, reader::next);
    reader.close();
    assertEquals(6, events.size());
  }

  @Test
  void closeClosesTheFileBeingReadAndNoOther() throws IOException {
    RunReader<FakeFile> reader = new RunReader<>(List.of(first, second), this::open);
    reader.next();

    reader.close();

    assertEquals(List.of("open first", "close first"), events);
  }

  @Test
  void aFileThatCannotBeOpenedIsAnUncheckedIoException() {
    RunReader<FakeFile> reader =
        new RunReader<>(
            List.of(first),
            f -> {
              throw new IOException("gone: " + f.fileName());
            });

    UncheckedIOException e = assertThrows(UncheckedIOException.class, reader::hasNext);
    assertEquals("gone: first", e.getCause().getMessage());
  }

  private FakeFile open(DataFileMeta file) {
    events.add("open " + file.fileName());
    return new FakeFile(file.fileName(), contents.get(file.fileName()).iterator());
  }

  private final class FakeFile implements Iterator<KeyValue>, Closeable {
    private final String name;
    private final Iterator<KeyValue> records;

    FakeFile(String name, Iterator<KeyValue> records) {
      this.name = name;
      this.records = records;
    }

    @Override
    public boolean hasNext() {
      return records.hasNext();
    }

    @Override
    public KeyValue next() {
      return records.next();
    }

    @Override
    public void close() {
      events.add("close " + name);
    }
  }
}
