package io.changelake.beam;

import java.io.Serializable;

/**
 * Test hook: stops a stage at a chosen point, once, as a crashing worker would, and lets the stage
 * retry the work as a runner retries a failed bundle.
 *
 * <p>Why the stage retries itself: the Java DirectRunner does not retry failed bundles
 * (apache/beam#19131), so tests could not otherwise show recovery. The emulation keeps the runner's
 * contract: the failed attempt's side effects on storage stay (files, snapshots), its state writes
 * and outputs are dropped (a stage applies them only after an attempt succeeds), and the DoFn's
 * memory stays as the attempt left it. Production pipelines use {@link #NONE}, whose points never
 * fail.
 */
interface FaultInjection extends Serializable {

  /** Where a stage can be stopped. */
  enum Point {
    /**
     * Bucket writer: the batch's files are written, nothing is emitted yet, and the writer in
     * memory matches no view (the retry sees a cleared view id).
     */
    AFTER_FILES_WRITTEN,
    /**
     * Bucket writer: the batch is done and its commit messages are emitted with the state that
     * records them, but the bundle fails before it commits, so the committer never sees them. The
     * writer in memory is one batch ahead of the state, under a view id the state never recorded
     * (the retry sees a different view id).
     */
    AFTER_MESSAGES_EMITTED,
    /** Committer: the manifests may be written, the snapshot is not created yet. */
    BEFORE_SNAPSHOT,
    /** Committer: the snapshot exists, the committer's state does not record it yet. */
    AFTER_SNAPSHOT
  }

  /** Thrown at a point chosen to fail; only the emulated retry catches it. */
  final class InjectedFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InjectedFault(Point point) {
      super("injected fault at " + point);
    }
  }

  FaultInjection NONE = point -> {};

  /**
   * Called when a stage reaches the point.
   *
   * @throws InjectedFault to stop the stage there
   */
  void reached(Point point);
}
