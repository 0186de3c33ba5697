package io.changelake.schema;

import io.changelake.schema.SchemaChange.AddColumn;
import io.changelake.schema.SchemaChange.DropColumn;
import io.changelake.schema.SchemaChange.MakeColumnNullable;
import io.changelake.schema.SchemaChange.RenameColumn;
import io.changelake.schema.SchemaChange.ResetOption;
import io.changelake.schema.SchemaChange.SetOption;
import io.changelake.schema.SchemaChange.UpdateColumnComment;
import io.changelake.schema.SchemaChange.UpdateColumnType;
import io.changelake.schema.SchemaChange.UpdateComment;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import io.changelake.types.TypeWidening;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The next schema of a table after a list of {@link SchemaChange}s, by Paimon 1.3.1's rules ({@code
 * SchemaManager.generateTableSchema}): field ids are kept, an added column gets the next id after
 * {@link TableSchema#highestFieldId}, a renamed column keeps its id and the options and keys naming
 * it follow it.
 *
 * <p>Refused, each with the reason: a NOT NULL added column; renaming a partition column; dropping
 * a primary-key or partition column, or the last column; changing the type of a primary-key or
 * partition column, or any change that is not a {@link TypeWidening widening}; making a primary-key
 * column nullable; on a table with snapshots, changing an option Paimon holds immutable ({@code
 * merge-engine}, {@code bucket-key}, ...) or the bucket count; and any result the table options
 * refuse (an option changelake does not implement, an option naming a dropped column).
 */
public final class SchemaEvolution {

  /** The options Paimon 1.3.1 refuses to change on a table with snapshots (IMMUTABLE_OPTIONS). */
  static final Set<String> IMMUTABLE_OPTIONS =
      Set.of(
          "bucket-function.type",
          "ignore-delete",
          "aggregation.remove-record-on-delete",
          "partial-update.remove-record-on-delete",
          "data-evolution.enabled",
          "rowkind.field",
          "index-file-in-data-file-dir",
          "primary-key",
          "partition",
          "data-file.path-directory",
          "merge-engine",
          "bucket-key",
          "force-lookup",
          "ignore-update-before",
          "partial-update.remove-record-on-sequence-group");

  private static final String FIELDS_PREFIX = "fields.";

  private final TableSchema old;
  private final List<DataField> fields;
  private final Map<String, String> options;
  private final List<String> primaryKeys;
  private int highestFieldId;
  private String comment;

  private SchemaEvolution(TableSchema old) {
    this.old = old;
    this.fields = new ArrayList<>(old.rowType().fields());
    this.options = new LinkedHashMap<>(old.options().asMap());
    this.primaryKeys = new ArrayList<>(old.primaryKeys());
    this.highestFieldId = old.highestFieldId();
    this.comment = old.comment();
  }

  /**
   * The schema {@code old.id() + 1} that {@code changes}, applied in order, make of {@code old}.
   *
   * @param hasSnapshots whether the table holds data: Paimon allows any option change before the
   *     first commit
   * @throws IllegalArgumentException naming the change that is refused and why
   */
  public static TableSchema apply(
      TableSchema old, List<SchemaChange> changes, boolean hasSnapshots) {
    if (changes.isEmpty()) {
      throw new IllegalArgumentException("no schema change given");
    }
    SchemaEvolution next = new SchemaEvolution(old);
    for (SchemaChange change : changes) {
      try {
        next.apply(change, hasSnapshots);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "cannot " + change.describe() + ": " + e.getMessage(), e);
      }
    }
    return next.result();
  }

  private void apply(SchemaChange change, boolean hasSnapshots) {
    if (change instanceof AddColumn add) {
      add(add);
    } else if (change instanceof RenameColumn rename) {
      rename(rename);
    } else if (change instanceof DropColumn drop) {
      drop(drop);
    } else if (change instanceof UpdateColumnType update) {
      updateType(update);
    } else if (change instanceof MakeColumnNullable nullable) {
      refuseKey(nullable.name(), primaryKeys, "a primary-key column is always NOT NULL");
      replace(nullable.name(), f -> f.withType(f.type().withNullable(true)));
    } else if (change instanceof UpdateColumnComment c) {
      replace(c.name(), f -> f.withDescription(c.description()));
    } else if (change instanceof UpdateComment c) {
      comment = c.comment();
    } else if (change instanceof SetOption set) {
      if (hasSnapshots) {
        checkMutable(set.key(), options.get(set.key()), set.value());
      }
      options.put(set.key(), set.value());
    } else if (change instanceof ResetOption reset) {
      if (hasSnapshots) {
        checkMutable(reset.key(), options.get(reset.key()), null);
      }
      options.remove(reset.key());
    }
  }

  private void add(AddColumn add) {
    if (!add.type().nullable()) {
      throw new IllegalArgumentException(
          "an added column must be nullable, since the rows already written have no value for it:"
              + " leave out NOT NULL");
    }
    checkNewName(add.name());
    DataField field = new DataField(++highestFieldId, add.name(), add.type(), add.description());
    SchemaChange.ColumnPosition position = add.position();
    if (position.first()) {
      fields.add(0, field);
    } else if (position.after() != null) {
      fields.add(indexOf(position.after()) + 1, field);
    } else {
      fields.add(field);
    }
  }

  private void rename(RenameColumn rename) {
    refuseKey(rename.name(), old.partitionKeys(), "a partition column names the folders of data");
    checkNewName(rename.newName());
    replace(rename.name(), f -> f.withName(rename.newName()));
    primaryKeys.replaceAll(k -> k.equals(rename.name()) ? rename.newName() : k);
    renameInOptions(rename.name(), rename.newName());
  }

  /**
   * Follows a rename in the options that name columns, as Paimon does: the lists {@code bucket-key}
   * and {@code sequence.field}, and the per-column keys {@code fields.<column>.*}.
   */
  private void renameInOptions(String from, String to) {
    for (String listOption : List.of("bucket-key", "sequence.field")) {
      String value = options.get(listOption);
      if (value != null && !value.isBlank()) {
        options.put(
            listOption,
            Arrays.stream(value.split(","))
                .map(c -> c.equals(from) ? to : c)
                .collect(Collectors.joining(",")));
      }
    }
    Map<String, String> renamed = new LinkedHashMap<>();
    options.forEach(
        (key, value) ->
            renamed.put(
                key.startsWith(FIELDS_PREFIX + from + ".")
                    ? FIELDS_PREFIX + to + key.substring(FIELDS_PREFIX.length() + from.length())
                    : key,
                value));
    options.clear();
    options.putAll(renamed);
  }

  private void drop(DropColumn drop) {
    refuseKey(drop.name(), old.partitionKeys(), "the partition columns place every row");
    refuseKey(drop.name(), primaryKeys, "the primary key identifies every row");
    fields.remove(indexOf(drop.name()));
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("a table needs at least one column");
    }
  }

  private void updateType(UpdateColumnType update) {
    refuseKey(update.name(), old.partitionKeys(), "the partition columns name the data folders");
    refuseKey(update.name(), primaryKeys, "the primary key orders every data file of the table");
    DataField field = fields.get(indexOf(update.name()));
    DataType to = update.newType().withNullable(field.type().nullable());
    if (!TypeWidening.widens(field.type(), to)) {
      throw new IllegalArgumentException(
          field.type().withNullable(true)
              + " cannot become "
              + to.withNullable(true)
              + " without losing values: only widening is allowed (TINYINT to SMALLINT to INT to"
              + " BIGINT, FLOAT to DOUBLE, a larger DECIMAL precision at the same scale, a larger"
              + " CHAR, VARCHAR, BINARY or VARBINARY length)");
    }
    fields.set(indexOf(update.name()), field.withType(to));
  }

  private static void checkMutable(String key, String oldValue, String newValue) {
    if (IMMUTABLE_OPTIONS.contains(key)) {
      throw new IllegalArgumentException(
          "'" + key + "' cannot change on a table that holds data (Paimon holds it immutable)");
    }
    if (key.equals("bucket")) {
      int from = oldValue == null ? 1 : Integer.parseInt(oldValue.trim());
      if (newValue == null || from != Integer.parseInt(newValue.trim())) {
        throw new IllegalArgumentException(
            "the bucket count of a table that holds data cannot change by an option: the data"
                + " would have to be rescaled into the new buckets");
      }
    }
  }

  private void checkNewName(String name) {
    if (indexOfOrMinus(name) >= 0) {
      throw new IllegalArgumentException("the table already has a column '" + name + "'");
    }
    if (name.startsWith("_KEY_") || name.equals("_SEQUENCE_NUMBER") || name.equals("_VALUE_KIND")) {
      throw new IllegalArgumentException(
          "'" + name + "' is a name the file format reserves: choose another");
    }
  }

  private static void refuseKey(String column, List<String> keys, String why) {
    if (keys.contains(column)) {
      throw new IllegalArgumentException("'" + column + "' is a key column, and " + why);
    }
  }

  private void replace(String name, UnaryOperator<DataField> change) {
    int index = indexOf(name);
    fields.set(index, change.apply(fields.get(index)));
  }

  private int indexOf(String name) {
    int index = indexOfOrMinus(name);
    if (index < 0) {
      throw new IllegalArgumentException(
          "the table has no column '"
              + name
              + "'; columns are "
              + fields.stream().map(DataField::name).toList());
    }
    return index;
  }

  private int indexOfOrMinus(String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The changes that lead from {@code before} to {@code after}, two versions of one table's schema,
   * as {@link #apply} would take them: columns matched by field id. For a schema history ({@code
   * ./changelake inspect}); a column moved without another change is not reported.
   */
  public static List<SchemaChange> changesBetween(TableSchema before, TableSchema after) {
    List<SchemaChange> changes = new ArrayList<>();
    RowType was = before.rowType();
    RowType now = after.rowType();
    for (DataField f : was.fields()) {
      if (fieldById(now, f.id()) == null) {
        changes.add(new DropColumn(f.name()));
      }
    }
    for (int i = 0; i < now.size(); i++) {
      DataField f = now.field(i);
      DataField old = fieldById(was, f.id());
      if (old == null) {
        SchemaChange.ColumnPosition position =
            i == 0
                ? SchemaChange.ColumnPosition.atFirst()
                : i == now.size() - 1
                    ? SchemaChange.ColumnPosition.last()
                    : SchemaChange.ColumnPosition.afterColumn(now.field(i - 1).name());
        changes.add(new AddColumn(f.name(), f.type(), f.description(), position));
        continue;
      }
      if (!old.name().equals(f.name())) {
        changes.add(new RenameColumn(old.name(), f.name()));
      }
      if (old.type().withNullable(true).equals(f.type().withNullable(true))) {
        if (!old.type().nullable() && f.type().nullable()) {
          changes.add(new MakeColumnNullable(f.name()));
        }
      } else {
        changes.add(new UpdateColumnType(f.name(), f.type()));
      }
      if (!Objects.equals(old.description(), f.description())) {
        changes.add(new UpdateColumnComment(f.name(), f.description()));
      }
    }
    if (!Objects.equals(before.comment(), after.comment())) {
      changes.add(new UpdateComment(after.comment()));
    }
    Map<String, String> oldOptions = before.options().asMap();
    Map<String, String> newOptions = after.options().asMap();
    newOptions.forEach(
        (key, value) -> {
          if (!value.equals(oldOptions.get(key))) {
            changes.add(new SetOption(key, value));
          }
        });
    for (String key : oldOptions.keySet()) {
      if (!newOptions.containsKey(key)) {
        changes.add(new ResetOption(key));
      }
    }
    return changes;
  }

  private static DataField fieldById(RowType type, int id) {
    for (DataField f : type.fields()) {
      if (f.id() == id) {
        return f;
      }
    }
    return null;
  }

  private TableSchema result() {
    RowType rowType = new RowType(fields);
    TableOptions validated = TableOptions.validate(options, rowType, primaryKeys);
    return new TableSchema(
        old.id() + 1,
        rowType,
        highestFieldId,
        old.partitionKeys(),
        primaryKeys,
        validated,
        comment,
        System.currentTimeMillis());
  }
}
