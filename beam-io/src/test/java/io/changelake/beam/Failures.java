package io.changelake.beam;

/** Test fixture: the messages of an exception and all its causes, to look for a name in them. */
final class Failures {

  private Failures() {}

  static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append('\n');
    }
    return all.toString();
  }
}
