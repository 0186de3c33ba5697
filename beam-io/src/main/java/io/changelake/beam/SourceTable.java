package io.changelake.beam;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.Table;
import io.changelake.table.TableNotFoundException;
import io.changelake.table.TablePath;
import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table a read stage works on, as plain serializable values: every worker opens its own
 * object store and table from it, since neither can travel with the pipeline.
 */
final class SourceTable implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(SourceTable.class);

  private final String warehouse;
  private final S3Settings s3;
  private final String database;
  private final String table;

  SourceTable(String warehouse, S3Settings s3, String database, String table) {
    this.warehouse = warehouse;
    this.s3 = s3;
    this.database = database;
    this.table = table;
    // Fails at pipeline construction on a bad name rather than on a worker.
    new TablePath(database, table);
  }

  SourceTable withS3Settings(S3Settings settings) {
    return new SourceTable(warehouse, settings, database, table);
  }

  /** An open store and the table in it; closing it closes the store. */
  record Opened(ObjectStore store, Table table) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      store.close();
    }
  }

  /**
   * Opens the table.
   *
   * @throws TableNotFoundException naming the location if there is no table there
   */
  Opened open() throws IOException {
    ObjectStore store = ObjectStores.open(warehouse, s3);
    try {
      return new Opened(store, Table.open(store, new TablePath(database, table)));
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** Opens the table, polling every {@code poll} until some writer has created it. */
  Opened awaitOpen(Duration poll) throws IOException {
    while (true) {
      try {
        return open();
      } catch (TableNotFoundException absent) {
        LOG.info("waiting {} for the table to be created: {}", poll, absent.getMessage());
        try {
          Thread.sleep(poll.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for table " + this, e);
        }
      }
    }
  }

  @Override
  public String toString() {
    return database + "." + table + " in " + warehouse;
  }
}
