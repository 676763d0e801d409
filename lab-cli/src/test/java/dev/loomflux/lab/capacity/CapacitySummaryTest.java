package dev.loomflux.lab.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Several capacity searches per target: their median, range and spread, per target x scenario. */
class CapacitySummaryTest {
    @Test
    void mediansPerTargetAndScenarioWithTheirSpread() {
        // session 6's two searches of mvc-vt (121 and 2,400 rps) plus a third: one slow JVM does not make the median
        List<Map<String, Object>> searches = List.of(
                search("mvc-vt", 1, 121, false), search("webflux", 1, 2900, false), search("mvc-vt", 2, 2400, false),
                search("webflux", 2, 387, false), search("mvc-vt", 3, 2200, false), search("webflux", 3, 2700, true));
        List<Map<String, Object>> summary = CapacitySummary.of(searches);
        assertEquals(2, summary.size());
        Map<String, Object> vt = summary.get(0);
        assertEquals("mvc-vt", vt.get("target"));
        assertEquals(3, vt.get("n"));
        assertEquals(2200.0, vt.get("median_rps"));
        assertEquals(121.0, vt.get("min_rps"));
        assertEquals(2400.0, vt.get("max_rps"));
        assertEquals(103.6, vt.get("spread_pct"), "(2400 - 121) / 2200");
        assertEquals(false, vt.get("reached_max"));
        Map<String, Object> webflux = summary.get(1);
        assertEquals(2700.0, webflux.get("median_rps"));
        assertEquals(true, webflux.get("reached_max"), "one search stopped at --max-rps");
        assertEquals("capacity mvc-vt gateway-delay20: median 2200 rps of 3 searches (121-2400, spread 103.6%) meets p99<50ms",
                CapacitySummary.describe(vt));
    }

    private static Map<String, Object> search(String target, int repeat, int rps, boolean reachedMax) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", target);
        m.put("scenario", "gateway-delay20");
        m.put("repeat", repeat);
        m.put("slo", "p99<50ms");
        m.put("capacity_rps", rps);
        m.put("reached_max", reachedMax);
        return m;
    }
}
