package io.changelake.store;

import java.io.FileNotFoundException;

/** There is no object at the path asked for. */
public final class ObjectNotFoundException extends FileNotFoundException {
  private static final long serialVersionUID = 1L;

  private final String path;

  public ObjectNotFoundException(String root, String path) {
    super("no object at " + path + " under " + root);
    this.path = path;
  }

  /** The path that was asked for, relative to the store's root. */
  public String path() {
    return path;
  }
}
