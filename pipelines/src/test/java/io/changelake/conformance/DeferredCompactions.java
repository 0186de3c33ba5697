package io.changelake.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Test fixture: the executor of Paimon's compactions, made deterministic. A submitted compaction
 * runs when someone waits for it (then on the waiting thread), or at {@link #runPending()}, which
 * the driver calls after each commit; it never finishes on its own in between. So a commit that
 * does not wait ({@code lookup-wait=false}) never sees its own compaction, and the next commit
 * always sees it.
 */
final class DeferredCompactions extends AbstractExecutorService {

  private final List<Runnable> pending = new ArrayList<>();
  private boolean shutdown;

  /** Runs every compaction submitted and not yet run. */
  void runPending() {
    List<Runnable> tasks = List.copyOf(pending);
    pending.clear();
    tasks.forEach(Runnable::run);
  }

  @Override
  protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
    return new RunOnWait<>(callable);
  }

  @Override
  protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
    return new RunOnWait<>(
        () -> {
          runnable.run();
          return value;
        });
  }

  @Override
  public void execute(Runnable task) {
    pending.add(task);
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> tasks = List.copyOf(pending);
    pending.clear();
    return tasks;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown && pending.isEmpty();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return isTerminated();
  }

  /** A task that runs on the thread waiting for it, if it has not run yet. */
  private static final class RunOnWait<T> extends FutureTask<T> {
    RunOnWait(Callable<T> callable) {
      super(callable);
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
      run();
      return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException {
      return get();
    }
  }
}
