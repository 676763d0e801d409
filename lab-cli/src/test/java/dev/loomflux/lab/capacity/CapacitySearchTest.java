package dev.loomflux.lab.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapacitySearchTest {
    @Test
    void doublesThenBisectsToWithinTheResolutionBelowTheKnee() {
        CapacitySearch.Outcome o = CapacitySearch.search(100, 1_000_000, 0.05, 30, rps -> rps <= 1234);
        assertTrue(o.capacity() <= 1234 && o.capacity() >= 1234 * 0.95, "capacity " + o.capacity());
        assertEquals(List.of(100, 200, 400, 800, 1600), o.steps().subList(0, 5).stream().map(CapacitySearch.Step::rps).toList());
        assertTrue(o.steps().size() <= 10, o.steps().toString());
    }

    @Test
    void aFailingFirstStepBisectsDownAndTheMaximumStopsDoubling() {
        assertTrue(CapacitySearch.search(100, 1000, 0.05, 30, rps -> rps <= 30).capacity() >= 28);
        CapacitySearch.Outcome capped = CapacitySearch.search(100, 300, 0.05, 30, rps -> true);
        assertEquals(300, capped.capacity());
        assertTrue(capped.reachedMax());
        assertEquals(0, CapacitySearch.search(100, 1000, 0.05, 30, rps -> false).capacity());
    }

    @Test
    void sloParsesAndJudgesAResult() {
        Slo slo = Slo.parse("p99<50ms", "0.1%");
        Map<String, Object> ok = Map.of("status", "ok", "latency_ms", Map.of("p99", 49.0), "requests", 10_000,
                "errors", Map.of("total", 10), "behind_schedule", false);
        assertEquals(List.of(), slo.misses(ok));
        Map<String, Object> slow = Map.of("status", "ok", "latency_ms", Map.of("p99", 50.0), "requests", 10_000,
                "errors", Map.of("total", 11), "behind_schedule", true);
        assertEquals(3, slo.misses(slow).size(), slo.misses(slow).toString());
        UsageException e = assertThrows(UsageException.class, () -> Slo.parse("p99>50ms", "0.1%"));
        assertTrue(e.getMessage().startsWith("--slo p99>50ms: expected"), e.getMessage());
        assertThrows(UsageException.class, () -> Slo.parse("p99<50ms", "lots"));
    }
}
