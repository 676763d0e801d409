package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The forest plot: a row per comparison, the ratio on a log axis with round ticks, user strings as text. */
class ForestTest {
    private static Answer.Row row(String a, Double ratio, Double low, Double high, Answer.Standing outcome) {
        return new Answer.Row("json", Metric.THROUGHPUT, "Throughput", a, "mvc-vt", ratio, low, high, outcome, outcome.name().toLowerCase(), a + " vs mvc-vt", "");
    }

    @Test
    void everyComparisonIsARowAndOnlyAComparedOneHasADot() {
        String svg = Forest.svg(List.of(row("mvc", 1.419, 1.397, 1.447, Answer.Standing.WINNER), row("webflux", 1.01, 0.98, 1.03, Answer.Standing.EQUIVALENT),
                row("mvc-10", null, null, null, Answer.Standing.UNDECIDED)));
        assertEquals(3, svg.split("<g class=\"row\"", -1).length - 1, svg);
        assertEquals(2, svg.split("<circle ", -1).length - 1, "no dot without a ratio: " + svg);
        assertEquals(2, svg.split("<line class=\"ci\"", -1).length - 1, svg);
        assertTrue(svg.contains("<text x=\"790\" y=\"99\" fill=\"#8c8c8c\">undecided no ratio</text>"), svg);
    }

    @Test
    void aHostileTargetNameStaysText() {
        String svg = Forest.svg(List.of(row("<img src=x onerror=alert(1)>", 0.5, 0.4, 0.6, Answer.Standing.WINNER)));
        assertFalse(svg.contains("<img"), svg);
        assertTrue(svg.contains("data-label=\"Throughput, &lt;img src=x onerror=alert(1)&gt; / mvc-vt\""), svg);
    }

    @Test
    void ticksAreRoundAndNearOneDenserWhenTheRangeIsNarrow() {
        assertEquals(List.of(0.5, 1.0, 2.0, 5.0), Forest.ticks(0.3, 6.5));
        assertEquals(List.of(0.9, 1.0, 1.1), Forest.ticks(0.85, 1.2));
        assertEquals(List.of(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0), Forest.ticks(0.01, 1.05));
    }
}
