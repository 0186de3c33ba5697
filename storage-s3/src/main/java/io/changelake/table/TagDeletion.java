package io.changelake.table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a tag together with the files only it kept, as Paimon's tag deletion does: a tag whose
 * snapshot has expired is often the last holder of that snapshot's data files and manifests, and a
 * table that drops automatic tags for months would otherwise grow until orphan cleaning runs.
 *
 * <p>The files the tagged snapshot references (its base and delta manifest lists, their manifests,
 * their data files and its index files) are deleted if, once the tag file is gone, no snapshot,
 * kept changelog or other tag references them ({@link OrphanFilesClean#referencedFiles}). A tag of
 * a live snapshot therefore deletes nothing but itself. Like snapshot expiry, it trusts that
 * writers build on live snapshots: a file only an expired snapshot named is not read again.
 */
public final class TagDeletion {

  private static final Logger LOG = LoggerFactory.getLogger(TagDeletion.class);

  private final Table table;

  public TagDeletion(Table table) {
    table.requireSupported("cleaned");
    this.table = table;
  }

  /**
   * Deletes tag {@code name} and the files only it referenced.
   *
   * @return the files deleted besides the tag's own, relative to the store root
   * @throws IllegalArgumentException if there is no such tag
   */
  public List<String> delete(String name) throws IOException {
    return delete(List.of(name));
  }

  /**
   * Deletes the tags {@code names} and the files only they referenced, walking the table's
   * references once for all of them (a lowered {@code tag.num-retained-max} drops many at once).
   *
   * @return the files deleted besides the tags' own, relative to the store root
   * @throws IllegalArgumentException if one of the tags does not exist; then none is deleted
   */
  public List<String> delete(Collection<String> names) throws IOException {
    OrphanFilesClean references = new OrphanFilesClean(table);
    Set<String> held = new TreeSet<>();
    for (String name : names) {
      held.addAll(references.referencedBy(table.tags().read(name)));
    }
    for (String name : names) {
      table.tags().delete(name);
    }
    held.removeAll(references.referencedFiles());
    List<String> deleted = new ArrayList<>();
    for (String file : held) {
      table.store().delete(file);
      deleted.add(file);
    }
    LOG.info(
        "deleted tags {} of {} and {} files only they kept",
        names,
        table.location(),
        deleted.size());
    return deleted;
  }
}
