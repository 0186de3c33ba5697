package io.changelake.schema;

import java.util.function.Function;

/**
 * One table option changelake implements, declared once: its key, its default, how its value is
 * parsed, the bounds a value must keep, and what it does. {@link ImplementedOptions} holds every
 * declaration; {@link TableOptions} reads values through them and {@link OptionRules} checks values
 * with them.
 *
 * <p>A per-column option has {@code <f>} in its key ({@code fields.<f>.aggregate-function}); {@link
 * #forColumn} gives a column's key.
 *
 * @param <T> the parsed value
 */
public final class TableOption<T> {

  /** The placeholder for the column in a per-column option's key. */
  static final String COLUMN = "<f>";

  private final String key;
  private final String defaultText;
  private final boolean storedDefault;
  private final Function<TableOptions, T> defaultValue;
  private final Function<String, T> parser;
  private final OptionBounds<? super T> bounds;
  private final String description;

  private TableOption(
      String key,
      String defaultText,
      boolean storedDefault,
      Function<TableOptions, T> defaultValue,
      Function<String, T> parser,
      OptionBounds<? super T> bounds,
      String description) {
    this.key = key;
    this.defaultText = defaultText;
    this.storedDefault = storedDefault;
    this.defaultValue = defaultValue;
    this.parser = parser;
    this.bounds = bounds;
    this.description = description;
  }

  /**
   * An option whose default is a value as a table would store it ({@code 128 mb}, {@code 1 h}),
   * parsed by {@code parser}; the empty text for an option that is unset by default.
   *
   * @param parser turns a stored value into T, or throws {@link IllegalArgumentException} saying
   *     which form is expected
   */
  static <T> TableOption<T> of(
      String key,
      String defaultValue,
      Function<String, T> parser,
      OptionBounds<? super T> bounds,
      String description) {
    T value = parser.apply(defaultValue);
    return new TableOption<>(
        key, defaultValue, true, options -> value, parser, bounds, description);
  }

  /**
   * An option whose default is not one stored value: it depends on other options, or means "absent"
   * (no expiry, the primary key, the JVM's temporary folder).
   *
   * @param defaultText the default as the manual states it
   * @param defaultValue the default of a table with these options (may be null: absent)
   */
  static <T> TableOption<T> derived(
      String key,
      String defaultText,
      Function<TableOptions, T> defaultValue,
      Function<String, T> parser,
      OptionBounds<? super T> bounds,
      String description) {
    return new TableOption<>(key, defaultText, false, defaultValue, parser, bounds, description);
  }

  /** The key; a per-column option's holds {@code <f>} where the column goes. */
  public String key() {
    return key;
  }

  /** Whether the key names a column ({@code fields.<f>....}). */
  public boolean perColumn() {
    return key.contains(COLUMN);
  }

  /** This per-column option's key for a column, or columns: {@code fields.a,b.sequence-group}. */
  public String forColumn(String column) {
    if (!perColumn()) {
      throw new IllegalStateException("table option '" + key + "' is not a per-column option");
    }
    return key.replace(COLUMN, column);
  }

  /** The default as the manual states it: a stored value, or how it is derived; empty if none. */
  public String defaultText() {
    return defaultText;
  }

  /**
   * Whether {@link #defaultText} is a value as a table would store it (else it says how the default
   * is derived).
   */
  public boolean storedDefault() {
    return storedDefault;
  }

  /** What the option does. */
  public String description() {
    return description;
  }

  /** The parsed value if set, else the default for a table with these options (may be null). */
  T valueIn(TableOptions options, String storedKey) {
    String value = options.get(storedKey);
    return value == null ? defaultValue.apply(options) : parse(value);
  }

  /** {@link #valueIn(TableOptions, String)} of this option's own key. */
  T valueIn(TableOptions options) {
    return valueIn(options, key);
  }

  /**
   * Parses a stored value, without checking its bounds.
   *
   * @throws IllegalArgumentException saying which form is expected
   */
  T parse(String value) {
    return parser.apply(value);
  }

  /**
   * Parses a value and checks its bounds.
   *
   * @throws IllegalArgumentException saying what is wrong, with the form or range expected
   */
  void check(String value) {
    bounds.check(parse(value));
  }

  @Override
  public String toString() {
    return key;
  }
}
