/**
 * changelake's transforms as SchemaTransforms, for Python, Beam YAML and any other caller of Beam's
 * expansion service.
 *
 * <table>
 *   <caption>Providers</caption>
 *   <tr><th>URN</th><th>builder</th><th>inputs</th><th>outputs</th></tr>
 *   <tr><td>{@code beam:schematransform:org.changelake:write:v1}</td>
 *       <td>{@link io.changelake.beam.ChangelakeIO#write()}</td><td>{@code input}</td>
 *       <td>{@code snapshots} (as {@link io.changelake.beam.WriteResult#getSnapshots()}), {@code
 *       dead_letters} ({@code record}, {@code error_message})</td></tr>
 *   <tr><td>{@code beam:schematransform:org.changelake:read:v1}</td>
 *       <td>{@link io.changelake.beam.ChangelakeIO#read()}</td><td>none</td>
 *       <td>{@code output}</td></tr>
 *   <tr><td>{@code beam:schematransform:org.changelake:read_changelog:v1}</td>
 *       <td>{@link io.changelake.beam.ChangelakeIO#readChangelog()}</td><td>none</td>
 *       <td>{@code output}</td></tr>
 * </table>
 *
 * <p>Each provider is registered for {@link java.util.ServiceLoader} (with {@code @AutoService}),
 * so an expansion service with {@code beam-io} on its class path offers all three. Their
 * configuration rows use snake_case names, one per builder setting, each with a description that
 * discovery hands to the caller; {@link
 * org.apache.beam.sdk.schemas.transforms.SchemaTransformProvider#configurationSchema()} lists them.
 * Every configuration names the table with {@code warehouse}, {@code database} (default {@code
 * default}) and {@code table}, and S3 with {@code s3_endpoint}, {@code s3_region} and {@code
 * s3_path_style_access}. S3 credentials are deliberately not configuration fields: the
 * configuration row is stored in clear text in the pipeline (and in Dataflow's job graph), so
 * workers use their default AWS credential chain.
 *
 * <p>Errors name the configuration field: a missing required field, a value of the wrong type or
 * range, an unknown field (a misspelt option is refused, never ignored), and errors the builder
 * raises when the transform is applied (a primary key not in the input, a column not in the table)
 * are retold with the field they concern.
 */
package io.changelake.beam.schematransform;
