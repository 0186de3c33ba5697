package io.changelake.beam;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.values.Row;

/**
 * Settles the {@link SourcePosition} of each input row the first stage refused: the dead letter
 * carries the row encoded with the input's coder, and the row will never be in the table. Each is
 * settled under its destination's table ({@link Destinations#locationOf}). Rows without a position
 * settle nothing.
 */
final class SettleRejectedFn extends DoFn<BadRecord, Row> {
  private static final long serialVersionUID = 1L;

  private final Destinations destinations;
  private final Coder<Row> inputCoder;
  private final int positionIndex;

  SettleRejectedFn(Destinations destinations, Coder<Row> inputCoder, int positionIndex) {
    this.destinations = destinations;
    this.inputCoder = inputCoder;
    this.positionIndex = positionIndex;
  }

  @ProcessElement
  public void process(@Element BadRecord rejected, OutputReceiver<Row> out) throws IOException {
    byte[] encoded = rejected.getRecord().getEncodedRecord();
    if (encoded == null) {
      throw new IllegalStateException(
          "a dead letter of the write to "
              + destinations.warehouse()
              + " lost its encoded row, and with it the row's source position: "
              + rejected.getFailure().getDescription());
    }
    Row row = inputCoder.decode(new ByteArrayInputStream(encoded));
    Row settled =
        SourcePosition.settledWithoutCommit(
            destinations.locationOf(row), row.getRow(positionIndex));
    if (settled != null) {
      out.output(settled);
    }
  }
}
