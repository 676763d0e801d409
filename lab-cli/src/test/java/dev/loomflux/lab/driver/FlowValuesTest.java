package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.experiment.FlowCsv;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The draws of flows: the same for the same seed, user and iteration, whatever else; spread as their weights and ranges say. */
class FlowValuesTest {
    @Test
    void theSameSeedUserAndIterationDrawTheSameAndAnotherSeedOtherValues() {
        int differ = 0;
        for (long user = 0; user < 20; user++) {
            for (long it = 0; it < 50; it++) {
                assertEquals(FlowValues.uniform(7, "price", user, it, 100, 10_000), FlowValues.uniform(7, "price", user, it, 100, 10_000));
                assertEquals(FlowValues.pick(7, new int[] {80, 15, 5}, user, it), FlowValues.pick(7, new int[] {80, 15, 5}, user, it));
                if (FlowValues.uniform(7, "price", user, it, 100, 10_000) != FlowValues.uniform(8, "price", user, it, 100, 10_000)) {
                    differ++;
                }
            }
        }
        assertTrue(differ > 990, "another seed, other values: " + differ + " of 1000 differ");
        assertNotEquals(FlowValues.uniform(7, "price", 0, 0, 0, 1L << 40), FlowValues.uniform(7, "cost", 0, 0, 0, 1L << 40), "each variable its own draws");
    }

    @Test
    void uniformValuesCoverTheirRangeEvenly() {
        int[] counts = new int[10];
        for (long user = 0; user < 100; user++) {
            for (long it = 0; it < 100; it++) {
                long v = FlowValues.uniform(1, "n", user, it, 10, 19);
                assertTrue(v >= 10 && v <= 19, "in range: " + v);
                counts[(int) (v - 10)]++;
            }
        }
        for (int c : counts) {
            // 10,000 draws, 1,000 expected per value; 5 standard deviations is 150.
            assertTrue(Math.abs(c - 1000) < 150, java.util.Arrays.toString(counts));
        }
    }

    @Test
    void flowsArePickedByWeight() {
        int[] counts = new int[3];
        for (long user = 0; user < 100; user++) {
            for (long it = 0; it < 200; it++) {
                counts[FlowValues.pick(42, new int[] {80, 15, 5}, user, it)]++;
            }
        }
        // 20,000 picks: 16,000, 3,000 and 1,000 expected, each within 5 standard deviations.
        assertTrue(Math.abs(counts[0] - 16_000) < 300 && Math.abs(counts[1] - 3_000) < 260 && Math.abs(counts[2] - 1_000) < 160,
                java.util.Arrays.toString(counts));
        assertEquals(0, FlowValues.pick(42, new int[] {1}, 3, 3), "a single flow is always picked");
    }

    @Test
    void uniqueValuesNeverRepeatOverUsersAndIterationsAndRowsGoRound() {
        Set<Long> seen = new HashSet<>();
        for (long user = 0; user < 7; user++) {
            for (long it = 0; it < 100; it++) {
                assertTrue(seen.add(FlowValues.unique(7, user, it)));
            }
        }
        assertEquals(Set.of(1L, 700L), Set.of(seen.stream().min(Long::compare).orElseThrow(), seen.stream().max(Long::compare).orElseThrow()), "1 to 700, dense");
        assertEquals(2, FlowValues.row(FlowCsv.Per.USER, 3, 10, 5, 99), "user 5 reads row 5 mod 3 in every iteration");
        assertEquals(List.of(0, 1, 2, 0), java.util.stream.IntStream.range(0, 4).map(it -> FlowValues.row(FlowCsv.Per.ITERATION, 3, 1, 0, it)).boxed().toList());
        assertEquals(1, FlowValues.row(FlowCsv.Per.ITERATION, 3, 2, 1, 0), "iteration 0 of user 1 of 2 reads the second row");
    }
}
