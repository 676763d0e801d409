package dev.loomflux.lab.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacitySearchTest {
    @Test
    void doublesThenBisectsToWithinTheResolutionBelowTheKnee() {
        CapacitySearch.Found o = CapacitySearch.search(100, 1_000_000, 0.05, 30, rps -> rps <= 1234);
        assertTrue(o.capacity() <= 1234 && o.capacity() >= 1234 * 0.95, "capacity " + o.capacity());
        assertEquals(List.of(100, 200, 400, 800, 1600), o.steps().subList(0, 5).stream().map(CapacitySearch.Trial::rps).toList());
        assertTrue(o.steps().size() <= 11, o.steps().toString());
    }

    @Test
    void theFailingBoundIsTriedOnceMoreAtTheEnd() {
        // A steady knee at 1234: the bound (1250) fails again, one step more than plain bisection.
        CapacitySearch.Found steadyKnee = CapacitySearch.search(100, 1_000_000, 0.05, 30, rps -> rps <= 1234);
        CapacitySearch.Trial last = steadyKnee.steps().get(steadyKnee.steps().size() - 1);
        assertFalse(last.passed());
        assertEquals(steadyKnee.steps().stream().filter(s -> !s.passed()).mapToInt(CapacitySearch.Trial::rps).min().getAsInt(), last.rps(),
                "the last step is the lowest failing rate: " + steadyKnee.steps());
        assertEquals(2, steadyKnee.steps().stream().filter(s -> s.rps() == last.rps()).count());

        // A target still warming up: 400 fails the first two times it is asked, then the real knee is 2,900.
        int[] asked400 = {0};
        CapacitySearch.Found warming = CapacitySearch.search(100, 1_000_000, 0.05, 40, rps -> {
            if (rps == 400 && asked400[0]++ < 1) {
                return false;
            }
            return rps <= 2900;
        });
        assertEquals(List.of(100, 200, 400, 300, 350, 375, 387, 400, 800, 1600, 3200),
                warming.steps().subList(0, 11).stream().map(CapacitySearch.Trial::rps).toList());
        assertTrue(warming.capacity() >= 2900 * 0.95 && warming.capacity() <= 2900, "capacity " + warming.capacity());

        // Each bound gets one more try only: a knee that stays put ends the search.
        int[] calls = {0};
        CapacitySearch.Found o = CapacitySearch.search(100, 1_000_000, 0.05, 40, rps -> {
            calls[0]++;
            return rps <= 500;
        });
        assertEquals(calls[0], o.steps().size());
        assertTrue(o.capacity() >= 475 && o.capacity() <= 500, "capacity " + o.capacity());
    }

    @Test
    void aFailingFirstStepBisectsDownAndTheMaximumStopsDoubling() {
        assertTrue(CapacitySearch.search(100, 1000, 0.05, 30, rps -> rps <= 30).capacity() >= 28);
        CapacitySearch.Found capped = CapacitySearch.search(100, 300, 0.05, 30, rps -> true);
        assertEquals(300, capped.capacity());
        assertTrue(capped.reachedMax());
        assertEquals(0, CapacitySearch.search(100, 1000, 0.05, 30, rps -> false).capacity());
    }

    @Test
    void sloParsesAndJudgesAResult() {
        Slo slo = Slo.parse("p99<50ms", "0.1%");
        Result ok = Results.result("{'status': 'ok', 'latency_ms': {'p99': 49.0}, 'requests': 10000, 'errors': {'total': 10}, 'behind_schedule': false}");
        assertEquals(List.of(), slo.misses(ok));
        Result slow = Results.result("{'status': 'ok', 'latency_ms': {'p99': 50.0}, 'requests': 10000, 'errors': {'total': 11}, 'behind_schedule': true}");
        assertEquals(3, slo.misses(slow).size(), slo.misses(slow).toString());
        UsageException e = assertThrows(UsageException.class, () -> Slo.parse("p99>50ms", "0.1%"));
        assertTrue(e.getMessage().startsWith("--slo p99>50ms: expected"), e.getMessage());
        assertThrows(UsageException.class, () -> Slo.parse("p99<50ms", "lots"));
    }
}
