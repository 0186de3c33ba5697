package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The demo, small: its RESULT lines say what the README promises for each producer. */
class DemoIT {

  private static final Pattern RESULT =
      Pattern.compile(
          "RESULT producer=(\\S+) store=(\\d+) aggregate=(-?\\d+) truth=(\\d+)"
              + " verdict=(OK|WRONG) before_images=(yes|no) .*");

  @Test
  void noneIsWrongInputNeedsBeforeImagesLookupAndFullCompactionAreRight() {
    StringWriter text = new StringWriter();
    CommandLine cli = new CommandLine(new Changelake());
    cli.setOut(new PrintWriter(text));
    assertEquals(0, cli.execute("demo", "--events", "300", "--batches", "2"));

    List<String> lines = text.toString().lines().filter(l -> l.startsWith("RESULT")).toList();
    // 2 inputs x 4 producers x 5 stores.
    assertEquals(40, lines.size(), text.toString());
    for (String line : lines) {
      Matcher m = RESULT.matcher(line);
      assertTrue(m.matches(), line);
      String producer = m.group(1);
      boolean story = m.group(2).equals("10");
      boolean beforeImages = m.group(6).equals("yes");
      boolean ok = m.group(5).equals("OK");
      if (story) {
        // Order 1001 at 100, corrected to 80: store 10's SUM is 80, or 180 without a retraction.
        assertEquals("80", m.group(4), line);
        assertEquals(ok ? "80" : "180", m.group(3), line);
      }
      switch (producer) {
        case "none" -> {
          if (story) {
            assertTrue(!ok, line);
          }
        }
        case "input" -> assertEquals(beforeImages, ok, line);
        default -> assertTrue(ok, line);
      }
    }
  }
}
