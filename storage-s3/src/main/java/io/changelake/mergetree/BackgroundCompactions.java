package io.changelake.mergetree;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that rewrite compactions beside the bucket writers of this JVM, as Paimon's write
 * task compacts on a thread of its own while it goes on writing: one per core, shared by every
 * bucket, each bucket with at most one compaction running (its {@link MergeTreeWriter} sees to
 * that). Daemon threads: a JVM that is done exits without waiting for them; a writer that closes
 * waits for its own compaction first.
 */
final class BackgroundCompactions {

  private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();

  private static final ExecutorService THREADS =
      Executors.newFixedThreadPool(
          Runtime.getRuntime().availableProcessors(),
          task -> {
            Thread thread =
                new Thread(task, "changelake-compaction-" + THREAD_NUMBER.incrementAndGet());
            thread.setDaemon(true);
            return thread;
          });

  private BackgroundCompactions() {}

  /** Runs {@code rewrite} on one of the threads. */
  static <T> Future<T> submit(Callable<T> rewrite) {
    return THREADS.submit(rewrite);
  }
}
