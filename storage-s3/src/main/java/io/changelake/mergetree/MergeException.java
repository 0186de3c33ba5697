package io.changelake.mergetree;

/**
 * A record the table's merge engine cannot take, such as a retraction for an aggregate function
 * that cannot undo. The message names the column and the option that fixes it. The write that
 * raised it is refused whole: the table stays as it was.
 */
public final class MergeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public MergeException(String message) {
    super(message);
  }
}
