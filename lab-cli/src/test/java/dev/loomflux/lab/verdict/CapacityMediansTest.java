package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.CapacitySearchResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Several capacity searches per target: their median, range and spread, per target x scenario. */
class CapacityMediansTest {
    @Test
    void mediansPerTargetAndScenarioWithTheirSpread() {
        // One slow JVM of three does not make the median.
        List<CapacitySearchResult> searches = List.of(
                search("mvc-vt", 1, 121, false), search("webflux", 1, 2900, false), search("mvc-vt", 2, 2400, false),
                search("webflux", 2, 387, false), search("mvc-vt", 3, 2200, false), search("webflux", 3, 2700, true));
        List<CapacityMedian> summary = CapacityMedians.of(searches);
        assertEquals(2, summary.size());
        CapacityMedian vt = summary.get(0);
        assertEquals("mvc-vt", vt.target());
        assertEquals(3, vt.n());
        assertEquals(2200.0, vt.medianRps());
        assertEquals(121.0, vt.minRps());
        assertEquals(2400.0, vt.maxRps());
        assertEquals(103.6, vt.spreadPct(), "(2400 - 121) / 2200");
        assertFalse(vt.reachedMax());
        CapacityMedian webflux = summary.get(1);
        assertEquals(2700.0, webflux.medianRps());
        assertTrue(webflux.reachedMax(), "one search stopped at --max-rps");
        assertEquals("capacity mvc-vt gateway-delay20: median 2200 rps of 3 searches (121-2400, spread 103.6%) meets p99<50ms", vt.describe());
    }

    private static CapacitySearchResult search(String target, int repeat, int rps, boolean reachedMax) {
        return new CapacitySearchResult(target, "gateway-delay20", repeat, "p99<50ms", rps, reachedMax, List.of());
    }
}
