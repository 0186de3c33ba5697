package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The compaction one bucket runs beside its writer, as Paimon's write task compacts on a thread of
 * its own while it goes on writing: planned on the writer's thread, rewritten on one of this JVM's
 * compaction threads (one per core, shared by every bucket; daemon threads, so a JVM that is done
 * exits without waiting for them), and handed back to the writer's thread as steps to record. One
 * at a time.
 *
 * <p>Only a compaction that owes no changelog runs here: its rewrite then looks nothing up in the
 * levels, which the writer goes on changing.
 *
 * <p>A compaction no commit will record (the writer closes) is cancelled: its rewrite stops at the
 * next key it merges and deletes what it wrote, as Paimon's writer cancels its compaction when it
 * closes. {@link #sharedStats} counts the JVM's compactions: those recorded, dropped and failed.
 */
public final class BackgroundCompaction {

  private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();
  private static final AtomicLong STARTED = new AtomicLong();
  private static final AtomicLong RECORDED = new AtomicLong();
  private static final AtomicLong DROPPED = new AtomicLong();
  private static final AtomicLong FAILED = new AtomicLong();

  private static final ExecutorService THREADS =
      Executors.newFixedThreadPool(
          Runtime.getRuntime().availableProcessors(),
          task -> {
            Thread thread =
                new Thread(task, "changelake-compaction-" + THREAD_NUMBER.incrementAndGet());
            thread.setDaemon(true);
            return thread;
          });

  private final CompactRewriter rewriter;
  private final BucketFiles files;
  private Running running;

  /** A compaction started: its rewrite's steps to come, and the flag that cancels it. */
  private record Running(Future<List<CompactRewriter.Step>> steps, AtomicBoolean cancel) {}

  /**
   * @param rewriter a rewriter of the bucket's levels with a merge function of its own
   * @param files the bucket's files
   */
  BackgroundCompaction(CompactRewriter rewriter, BucketFiles files) {
    this.rewriter = rewriter;
    this.files = files;
  }

  /** Whether a compaction was started and not yet finished or dropped. */
  boolean running() {
    return running != null;
  }

  /** Whether a compaction was started and its rewrite is over. */
  boolean done() {
    return running != null && running.steps().isDone();
  }

  /** Plans {@code unit} from the levels as they are now, and starts rewriting it. */
  void start(CompactUnit unit) {
    if (running != null) {
      throw new IllegalStateException("a compaction of " + files.folder() + " is running");
    }
    CompactRewriter.Plan plan = rewriter.plan(unit);
    AtomicBoolean cancel = new AtomicBoolean();
    running = new Running(THREADS.submit(() -> rewrite(plan, cancel)), cancel);
    STARTED.incrementAndGet();
  }

  /**
   * On a compaction thread; if the rewrite fails or is cancelled, deletes what its finished steps
   * wrote.
   */
  private List<CompactRewriter.Step> rewrite(CompactRewriter.Plan plan, AtomicBoolean cancel)
      throws IOException {
    List<CompactRewriter.Step> steps = new ArrayList<>();
    try {
      rewriter.rewrite(
          plan,
          new CompactRewriter.StepSink() {
            @Override
            public void done(CompactRewriter.Step step) {
              steps.add(step);
            }

            @Override
            public boolean cancelled() {
              return cancel.get();
            }
          });
      return steps;
    } catch (IOException | RuntimeException e) {
      deleteWritten(steps);
      throw e;
    }
  }

  /**
   * Waits for the compaction started, if any, for the writer to record its steps.
   *
   * @return its steps; none if no compaction was running
   * @throws IOException if it failed (it left no file behind)
   */
  List<CompactRewriter.Step> finish() throws IOException {
    if (running == null) {
      return List.of();
    }
    try {
      List<CompactRewriter.Step> steps = await();
      RECORDED.incrementAndGet();
      return steps;
    } catch (ExecutionException e) {
      FAILED.incrementAndGet();
      throw new IOException(
          "the background compaction of " + files.folder() + " failed", e.getCause());
    }
  }

  /**
   * Cancels the compaction started, if any, waits for its rewrite to stop, and deletes the files it
   * wrote: no commit will record it, and the files it read stay where they are. Its failure, if it
   * failed, is no one's loss.
   */
  void drop() throws IOException {
    if (running == null) {
      return;
    }
    running.cancel().set(true);
    DROPPED.incrementAndGet();
    try {
      deleteWritten(await());
    } catch (ExecutionException e) {
      // It deleted what it had written when it failed or stopped.
    }
  }

  /** The background compactions of this JVM so far, every table's. */
  public static Stats sharedStats() {
    // The settled counts first: a compaction is started before it settles, so read in this order
    // the pending count is never below zero while other buckets start and settle theirs.
    long failed = FAILED.get();
    long dropped = DROPPED.get();
    long recorded = RECORDED.get();
    return new Stats(STARTED.get(), recorded, dropped, failed);
  }

  /**
   * Background compactions counted since the JVM started.
   *
   * @param started handed to a compaction thread
   * @param recorded handed back to their writer, to be recorded by its next commit
   * @param dropped cancelled (or, if done, discarded) because their writer closed
   * @param failed whose rewrite failed, failing the commit that waited for them
   */
  public record Stats(long started, long recorded, long dropped, long failed) {

    /**
     * Started and not yet recorded, dropped or failed: running, or done and waiting for a commit.
     */
    public long pending() {
      return started - recorded - dropped - failed;
    }
  }

  private List<CompactRewriter.Step> await() throws IOException, ExecutionException {
    Future<List<CompactRewriter.Step>> awaited = running.steps();
    running = null;
    try {
      return awaited.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(
          "interrupted waiting for the compaction of " + files.folder());
    }
  }

  private void deleteWritten(List<CompactRewriter.Step> steps) throws IOException {
    for (CompactRewriter.Step step : steps) {
      if (!step.moved()) {
        for (DataFileMeta f : step.written()) {
          files.delete(f);
        }
      }
      for (DataFileMeta f : step.changelog()) {
        files.delete(f);
      }
    }
  }
}
