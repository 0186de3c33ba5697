package io.changelake.beam;

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

  private static void warn(String stage, Throwable failure) {
    LOG.warn(
        "{}: releasing at teardown failed ({}: {}); nothing committed depends on it",
        stage,
        failure.getClass().getName(),
        failure.getMessage());
  }
}
