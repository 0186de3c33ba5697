package io.changelake.table;

import io.changelake.schema.RetentionOptions;
import io.changelake.schema.TableOptions;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Automatic tags, as Paimon 1.3.1 creates them with {@code tag.automatic-creation=process-time}:
 * run after each commit, they walk the snapshots committed since the last run. The first snapshot
 * whose commit time, less {@code tag.creation-delay}, is past the end of the period after the last
 * automatic tag's gets a tag named after the period it closes ({@link TagPeriod}); the very first
 * snapshot looked at gets one at once. With {@code tag.num-retained-max}, the oldest automatic tags
 * beyond it are deleted; tags made by hand are neither counted nor deleted.
 *
 * <p>One instance lives with a committer and remembers where it stopped, as Paimon's does; a new
 * one starts after the newest automatic tag (or at the earliest snapshot). A deleted tag takes the
 * files only it kept with it ({@link TagDeletion}), as in Paimon.
 */
final class AutoTags {

  private final Tags tags;
  private final TagDeletion deletion;
  private final SnapshotLog snapshots;
  private final TagPeriod period;
  private final Duration delay;
  private final Integer retainedMax;
  private final boolean completion;

  /** The start of the period after the newest automatic tag's, or null before the first tag. */
  private LocalDateTime nextTag;

  private long nextSnapshot;

  private AutoTags(Table table) throws IOException {
    TableOptions options = table.options();
    this.tags = table.tags();
    this.deletion = new TagDeletion(table);
    this.snapshots = table.snapshots();
    this.period = TagPeriod.of(options);
    this.delay = options.get(RetentionOptions.TAG_CREATION_DELAY);
    if (delay.compareTo(period.length()) >= 0) {
      throw new IllegalArgumentException(
          "tag.creation-delay "
              + delay
              + " is not shorter than the tag period "
              + period.length()
              + ": give a shorter delay");
    }
    this.retainedMax = options.get(RetentionOptions.TAG_NUM_RETAINED_MAX);
    this.completion = options.get(RetentionOptions.TAG_AUTOMATIC_COMPLETION);
    List<Map.Entry<String, Snapshot>> automatic = automaticTags();
    if (automatic.isEmpty()) {
      this.nextSnapshot = snapshots.earliestId().orElse(1);
    } else {
      Map.Entry<String, Snapshot> newest = automatic.get(automatic.size() - 1);
      this.nextSnapshot = newest.getValue().id() + 1;
      this.nextTag = period.start(newest.getKey()).plus(period.length());
    }
  }

  /** The automatic tags of a table whose options ask for them, else null. */
  static AutoTags of(Table table) throws IOException {
    return table.options().get(RetentionOptions.TAG_AUTOMATIC_CREATION).equals("process-time")
        ? new AutoTags(table)
        : null;
  }

  /** Tags the snapshots committed since the last run that close a period. */
  void run() throws IOException {
    OptionalLong latest = snapshots.latestId();
    while (latest.isPresent() && nextSnapshot <= latest.getAsLong()) {
      if (snapshots.exists(nextSnapshot)) {
        consider(snapshots.read(nextSnapshot));
        nextSnapshot++;
      } else {
        // Expired meanwhile: go on from the earliest snapshot there is.
        long earliest = snapshots.earliestId().orElse(nextSnapshot + 1);
        nextSnapshot = Math.max(earliest, nextSnapshot + 1);
      }
    }
  }

  private void consider(Snapshot snapshot) throws IOException {
    LocalDateTime time =
        LocalDateTime.ofInstant(
            Instant.ofEpochMilli(snapshot.timeMillis()), ZoneId.systemDefault());
    if (nextTag != null && time.minus(delay).isBefore(nextTag.plus(period.length()))) {
      return;
    }
    LocalDateTime closes = completion && nextTag != null ? nextTag : period.previousStart(time);
    String name = period.name(closes);
    if (tags.get(name).isEmpty()) {
      tags.createAutomatic(name, snapshot.id());
    }
    nextTag = closes.plus(period.length());
    if (retainedMax != null) {
      List<Map.Entry<String, Snapshot>> automatic = automaticTags();
      List<String> beyond = new ArrayList<>();
      for (int i = 0; i < automatic.size() - retainedMax; i++) {
        beyond.add(automatic.get(i).getKey());
      }
      if (!beyond.isEmpty()) {
        deletion.delete(beyond);
      }
    }
  }

  /** The tags named as automatic tags are, oldest snapshot first. */
  private List<Map.Entry<String, Snapshot>> automaticTags() throws IOException {
    List<Map.Entry<String, Snapshot>> automatic = new ArrayList<>();
    for (Map.Entry<String, Snapshot> tag : tags.list().entrySet()) {
      if (period.start(tag.getKey()) != null) {
        automatic.add(tag);
      }
    }
    automatic.sort(Comparator.comparingLong(e -> e.getValue().id()));
    return automatic;
  }
}
