package io.changelake.templates;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/** Options of the templates that keep a grouped SUM, COUNT and AVG in an aggregate table. */
public interface AggregateOptions extends TemplateOptions {

  @Description("Column to group by: the primary key of the aggregate table. Required.")
  String getGroupColumn();

  void setGroupColumn(String value);

  @Description("Numeric column (INT, BIGINT or DOUBLE) to sum, count and average. Required.")
  String getValueColumn();

  void setValueColumn(String value);

  @Description(
      "The aggregate table, created if missing: the group column, sum_<value column> and cnt;"
          + " AVG is sum_<value column> / cnt on read. Required.")
  String getAggregateTable();

  void setAggregateTable(String value);

  @Description("Buckets of the aggregate table.")
  @Default.Integer(1)
  Integer getAggregateBuckets();

  void setAggregateBuckets(Integer value);
}
