package dev.loomflux.lab.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LadderTest {
    /** Climbs the ladder against fixed knees: a target holds every rate up to its knee. */
    private static Ladder climb(Ladder ladder, Map<String, Integer> knees, Integer driverLimit) {
        List<String> targets = List.copyOf(knees.keySet());
        for (int rps = ladder.next(targets); rps > 0; rps = ladder.next(targets)) {
            Map<String, Ladder.Outcome> outcomes = new LinkedHashMap<>();
            for (String t : targets) {
                outcomes.put(t, driverLimit != null && rps >= driverLimit ? Ladder.Outcome.DRIVER : rps <= knees.get(t) ? Ladder.Outcome.HOLDS : Ladder.Outcome.FAILS);
            }
            ladder.measured(rps, outcomes);
        }
        return ladder;
    }

    @Test
    void climbsFourfoldThenRefinesEachKneeToItsResolution() {
        Map<String, Integer> knees = Map.of("a", 1234, "b", 3000);
        Ladder ladder = climb(new Ladder(100, 200_000, 0.10, 20), knees, null);
        assertEquals(List.of(100, 400, 1600, 6400), ladder.rates().stream().filter(r -> r == 100 || r == 400 || r == 1600 || r == 6400).toList());
        for (var e : knees.entrySet()) {
            int fail = ladder.failedAt(e.getKey());
            int held = ladder.rates().stream().filter(r -> r < fail && r <= e.getValue()).mapToInt(Integer::intValue).max().getAsInt();
            assertTrue(held <= e.getValue() && fail > e.getValue() && (double) fail / held <= 1.10, e + ": held " + held + ", missed " + fail + " " + ladder.rates());
        }
        assertTrue(ladder.rates().size() <= 4 + 2 * 4, "rungs " + ladder.rates());
    }

    @Test
    void goesDownWhenATargetMissesTheLowestRung() {
        Ladder ladder = climb(new Ladder(1000, 200_000, 0.10, 20), Map.of("slow", 30, "fast", 2000), null);
        assertTrue(ladder.rates().get(0) < 30, "a rung below the slow target's knee: " + ladder.rates());
        assertTrue(ladder.failedAt("slow") <= 33 * 1.1, ladder.rates().toString());
    }

    @Test
    void noRungAboveOneTheDriverCouldNotOffer() {
        Ladder ladder = climb(new Ladder(100, 200_000, 0.10, 20), Map.of("a", 50_000, "b", 900), 1600);
        assertTrue(ladder.rates().stream().allMatch(r -> r <= 1600), ladder.rates().toString());
        assertEquals(-1, ladder.next(List.of("a", "b")));
    }

    @Test
    void stopsAtItsRungsAndAtTheHighestRate() {
        assertEquals(3, climb(new Ladder(100, 200_000, 0.01, 3), Map.of("a", 5000), null).rates().size());
        Ladder capped = climb(new Ladder(100, 1000, 0.10, 20), Map.of("a", 5000), null);
        assertEquals(List.of(100, 400, 1000), capped.rates());
    }

    @Test
    void stepsDownFromANarrowHoldUntilARungHoldsFirmlyWithinTheResolution() {
        // 100 and 91 held narrowly, 83 firmly; 109 missed: rungs go down a resolution at a time from the narrow hold.
        Ladder ladder = new Ladder(25, 1000, 0.10, 20);
        ladder.measured(25, Map.of("a", Ladder.Outcome.HOLDS));
        ladder.measured(100, Map.of("a", Ladder.Outcome.HOLDS_NARROWLY));
        ladder.measured(109, Map.of("a", Ladder.Outcome.FAILS));
        assertEquals(91, ladder.next(List.of("a")));
        ladder.measured(91, Map.of("a", Ladder.Outcome.HOLDS_NARROWLY));
        assertEquals(83, ladder.next(List.of("a")));
        ladder.measured(83, Map.of("a", Ladder.Outcome.HOLDS));
        assertEquals(-1, ladder.next(List.of("a")), "83 holds firmly within 10% of the narrow 91: " + ladder.rates());
    }
}
