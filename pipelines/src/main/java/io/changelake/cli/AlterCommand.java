package io.changelake.cli;

import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaChange.ColumnPosition;
import io.changelake.store.ObjectStore;
import io.changelake.table.Table;
import io.changelake.types.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Changes a table's schema: one alter, written as the next schema version. */
@Command(
    name = "alter",
    mixinStandardHelpOptions = true,
    description = {
      "Changes a table's schema, writing schema/schema-<n+1> as Paimon 1.3.1 does. Rows written"
          + " before read on under the new schema (an added column reads as null, a renamed one"
          + " by its field id, a widened one converted); writers started afterwards write it."
          + " Running writers keep the schema they started with until restarted.",
      "Example: ./changelake alter --warehouse W --table orders add-column remark STRING"
          + " --after status"
    },
    subcommands = {
      AlterCommand.AddColumn.class,
      AlterCommand.RenameColumn.class,
      AlterCommand.DropColumn.class,
      AlterCommand.AlterColumnType.class,
      AlterCommand.DropNotNull.class,
      AlterCommand.Comment.class,
      AlterCommand.SetOption.class,
      AlterCommand.ResetOption.class
    })
final class AlterCommand implements Runnable {

  @Mixin TableLocation location;

  @Override
  public void run() {
    throw new IllegalArgumentException(
        "name the change: add-column, rename-column, drop-column, alter-column-type,"
            + " drop-not-null, comment, set-option or reset-option (see alter --help)");
  }

  /** Applies {@code changes} to the table's latest schema and reports the new schema id. */
  int apply(List<SchemaChange> changes) throws Exception {
    try (ObjectStore store = location.openStore()) {
      Table altered = location.open(store).alter(changes);
      System.out.println("schema " + altered.schema().id() + " of " + altered.location() + ":");
      for (SchemaChange change : changes) {
        System.out.println("  " + change.describe());
      }
    }
    return 0;
  }

  @Command(
      name = "add-column",
      mixinStandardHelpOptions = true,
      description = "Adds a nullable column, last unless --first or --after says otherwise.")
  static final class AddColumn implements Callable<Integer> {
    @ParentCommand AlterCommand alter;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(
        index = "1",
        paramLabel = "TYPE",
        description = "Paimon's type form: INT, BIGINT, STRING, 'DECIMAL(10,2)', ...")
    String type;

    @Option(names = "--comment", paramLabel = "TEXT", description = "The column comment.")
    String comment;

    @ArgGroup(exclusive = true)
    Position position;

    static final class Position {
      @Option(names = "--first", description = "Put the column before every other.")
      boolean first;

      @Option(names = "--after", paramLabel = "COLUMN", description = "Put it after COLUMN.")
      String after;
    }

    @Override
    public Integer call() throws Exception {
      ColumnPosition at =
          position == null
              ? ColumnPosition.last()
              : position.first
                  ? ColumnPosition.atFirst()
                  : ColumnPosition.afterColumn(position.after);
      return alter.apply(
          List.of(new SchemaChange.AddColumn(name, DataType.parse(type), comment, at)));
    }
  }

  @Command(
      name = "rename-column",
      mixinStandardHelpOptions = true,
      description = "Renames a column (not a partition column); it keeps its field id.")
  static final class RenameColumn implements Callable<Integer> {
    @ParentCommand AlterCommand alter;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(index = "1", paramLabel = "NEW_NAME")
    String newName;

    @Override
    public Integer call() throws Exception {
      return alter.apply(List.of(new SchemaChange.RenameColumn(name, newName)));
    }
  }

  @Command(
      name = "drop-column",
      mixinStandardHelpOptions = true,
      description = "Drops a column that is neither a primary-key nor a partition column.")
  static final class DropColumn implements Callable<Integer> {
    @ParentCommand AlterCommand alter;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Override
    public Integer call() throws Exception {
      return alter.apply(List.of(new SchemaChange.DropColumn(name)));
    }
  }

  @Command(
      name = "alter-column-type",
      mixinStandardHelpOptions = true,
      description = {
        "Widens a column's type: TINYINT to SMALLINT to INT to BIGINT, FLOAT to DOUBLE, a larger"
            + " DECIMAL precision at the same scale, a larger CHAR/VARCHAR/BINARY/VARBINARY"
            + " length. The column keeps its nullability; narrowing is refused."
      })
  static final class AlterColumnType implements Callable<Integer> {
    @ParentCommand AlterCommand alter;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(index = "1", paramLabel = "TYPE")
    String type;

    @Override
    public Integer call() throws Exception {
      return alter.apply(List.of(new SchemaChange.UpdateColumnType(name, DataType.parse(type))));
    }
  }

  @Command(
      name = "drop-not-null",
      mixinStandardHelpOptions = true,
      description = "Makes a NOT NULL column nullable (not a primary-key column).")
  static final class DropNotNull implements Callable<Integer> {
    @ParentCommand AlterCommand alter;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Override
    public Integer call() throws Exception {
      return alter.apply(List.of(new SchemaChange.MakeColumnNullable(name)));
    }
  }

  @Command(
      name = "comment",
      mixinStandardHelpOptions = true,
      description =
          "Sets the table comment, or with --column a column's; an empty TEXT removes it.")
  static final class Comment implements Callable<Integer> {
    @ParentCommand AlterCommand alter;

    @Option(names = "--column", paramLabel = "NAME", description = "Comment on this column.")
    String column;

    @Parameters(index = "0", paramLabel = "TEXT")
    String text;

    @Override
    public Integer call() throws Exception {
      String comment = text.isEmpty() ? null : text;
      return alter.apply(
          List.of(
              column == null
                  ? new SchemaChange.UpdateComment(comment)
                  : new SchemaChange.UpdateColumnComment(column, comment)));
    }
  }

  @Command(
      name = "set-option",
      mixinStandardHelpOptions = true,
      description = {
        "Sets table options. Options Paimon holds immutable (merge-engine, bucket-key, ...) and"
            + " the bucket count cannot change once the table holds data; options changelake does"
            + " not implement are refused."
      })
  static final class SetOption implements Callable<Integer> {
    @ParentCommand AlterCommand alter;

    @Parameters(arity = "1..*", paramLabel = "KEY=VALUE")
    Map<String, String> options;

    @Override
    public Integer call() throws Exception {
      List<SchemaChange> changes = new ArrayList<>();
      options.forEach((k, v) -> changes.add(new SchemaChange.SetOption(k, v)));
      return alter.apply(changes);
    }
  }

  @Command(
      name = "reset-option",
      mixinStandardHelpOptions = true,
      description = "Removes table options, so their defaults apply again.")
  static final class ResetOption implements Callable<Integer> {
    @ParentCommand AlterCommand alter;

    @Parameters(arity = "1..*", paramLabel = "KEY")
    List<String> keys;

    @Override
    public Integer call() throws Exception {
      return alter.apply(
          keys.stream().map(k -> (SchemaChange) new SchemaChange.ResetOption(k)).toList());
    }
  }
}
