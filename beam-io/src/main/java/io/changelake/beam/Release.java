package io.changelake.beam;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases what a DoFn holds at {@code @Teardown}, best effort: a failure to release is logged at
 * WARN, never thrown.
 *
 * <p>Why: Beam calls a teardown at most once and not always, and a runner may call it while another
 * thread still uses the instance. The DirectRunner does on cancel: it tears every DoFn down from
 * the cancelling thread while its workers may still be inside a bundle, so a Kafka consumer in the
 * middle of a commit refuses to close from another thread, or a writer map changes while it is
 * walked. A teardown that throws makes the whole cancel fail. Nothing a teardown releases holds
 * data that is not already in a committed snapshot or in Beam state (a bucket writer's uncommitted
 * files are rebuilt from state by the next worker), so a release that fails loses nothing; the log
 * says which resource of which stage it was, with the exception's type and message.
 */
public final class Release {
  private static final Logger LOG = LoggerFactory.getLogger(Release.class);

  private Release() {}

  /**
   * Closes {@code resource} (nothing if null), logging instead of throwing.
   *
   * @param stage the stage and resource, for the log line (never a value that may hold a secret)
   * @return whether it closed without a failure
   */
  public static boolean quietly(String stage, @Nullable AutoCloseable resource) {
    if (resource == null) {
      return true;
    }
    try {
      resource.close();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      warn(stage, e);
      return false;
    } catch (Exception e) {
      warn(stage, e);
      return false;
    }
  }

  /**
   * Closes, as {@link #quietly}, the resource of each of {@code holders} (a stage's map of hosted
   * writers or assigners), each on its own so that one failure leaves none of the others open. The
   * holders are walked on a copy: a runner's worker may still be adding one to the map.
   */
  public static <T> void each(
      String stage, Collection<T> holders, Function<T, AutoCloseable> resource) {
    List<T> copy;
    try {
      copy = List.copyOf(holders);
    } catch (RuntimeException e) {
      warn(stage, e);
      return;
    }
    for (T holder : copy) {
      quietly(stage, resource.apply(holder));
    }
  }

  private static void warn(String stage, Throwable failure) {
    LOG.warn(
        "{}: releasing at teardown failed ({}: {}); nothing committed depends on it",
        stage,
        failure.getClass().getName(),
        failure.getMessage());
  }
}
