package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loomflux.lab.result.SweepMap;
import org.junit.jupiter.api.Test;

/** A heatmap cell's shade follows its winner's margin, so a narrow win does not look like a rout. */
class SweepChartsTest {
    private static SweepMap.Winner clear(double margin) {
        return new SweepMap.Winner("throughput_rps", SweepMap.CLEAR, "mvc-vt", "mvc", margin);
    }

    @Test
    void theShadeGrowsWithTheMarginFromTheFloorToADoubling() {
        assertEquals(0.3, SweepCharts.shade(clear(5)));
        // Halfway between 5% and 100% on a log scale: sqrt(5 * 100) = 22.4%.
        assertEquals(0.65, SweepCharts.shade(clear(Math.sqrt(500))));
        assertEquals(0.57, SweepCharts.shade(clear(15.8)));
        assertEquals(1.0, SweepCharts.shade(clear(100)));
        assertEquals(1.0, SweepCharts.shade(clear(395)));
        // Under the floor (a pre-floor results.json) is as pale as the floor, never transparent.
        assertEquals(0.3, SweepCharts.shade(clear(3.5)));
    }

    @Test
    void cellsWithoutAClearWinnerAreOpaqueGrey() {
        assertEquals(1.0, SweepCharts.shade(null));
        assertEquals(1.0, SweepCharts.shade(new SweepMap.Winner("throughput_rps", SweepMap.UNCLEAR, "mvc-vt", "mvc", 1.0)));
        assertEquals(1.0, SweepCharts.shade(new SweepMap.Winner("throughput_rps", SweepMap.UNSTEADY, "mvc-vt", "mvc", 40.0)));
        assertEquals(1.0, SweepCharts.shade(new SweepMap.Winner("error_pct", SweepMap.CLEAR, "mvc-vt", "mvc", null)));
    }
}
