package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import dev.loomflux.lab.experiment.LoadProfile;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkData;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.core.parser.BenchmarkParser;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The round order and the rounds' Hyperfoil benchmark, without any load. */
class RoundsTest {
    private static Rounds rounds(int targets, int n) {
        List<Rounds.Target> ts = java.util.stream.IntStream.range(0, targets)
                .mapToObj(i -> new Rounds.Target("t" + i, URI.create("http://127.0.0.1:" + (9000 + i)))).toList();
        return new Rounds(ts, "/plaintext", new LoadProfile.Fixed(50, Duration.ofSeconds(5)), Rounds.shuffled(targets, n, 7), 1, Duration.ofSeconds(10),
                Duration.ofSeconds(1));
    }

    @Test
    void everyTargetOncePerRoundInOrdersThatVary() {
        List<List<Integer>> order = Rounds.shuffled(3, 20, 42);
        assertEquals(20, order.size());
        Set<List<Integer>> distinct = new HashSet<>(order);
        for (List<Integer> round : order) {
            assertEquals(Set.of(0, 1, 2), new HashSet<>(round), round.toString());
        }
        // 6 possible orders: 20 rounds that used only one or two would be a broken shuffle (chance about 1e-9).
        assertTrue(distinct.size() >= 4, "orders used: " + distinct);
        // Every target runs first in some round: no target keeps a position.
        for (int t = 0; t < 3; t++) {
            int target = t;
            assertTrue(order.stream().anyMatch(r -> r.get(0) == target), "target " + t + " never first");
        }
        assertEquals(order, Rounds.shuffled(3, 20, 42), "the same seed gives the same order");
        assertNotEquals(order, Rounds.shuffled(3, 20, 43), "another seed another order");
    }

    @Test
    void theSequenceFollowsTheOrder() {
        Rounds r = rounds(3, 4);
        List<String> seq = r.sequence();
        assertEquals(12, seq.size());
        for (int round = 0; round < 4; round++) {
            for (int p = 0; p < 3; p++) {
                assertEquals(Rounds.phase(r.order().get(round).get(p), round), seq.get(round * 3 + p));
            }
        }
    }

    @Test
    void hyperfoilBuildsOneIterationPerBlockWithAPoolPerTarget() throws Exception {
        Rounds r = rounds(2, 3);
        String yaml = new Hyperfoil().export(r, "test").text();
        BenchmarkParser parser = BenchmarkParser.instance();
        Benchmark b = parser.buildBenchmark(parser.createSource(yaml, BenchmarkData.EMPTY), Map.of());
        Set<String> names = new HashSet<>(b.phases().stream().map(Phase::name).toList());
        assertTrue(names.containsAll(r.sequence()), names + " vs " + r.sequence());
        assertTrue(yaml.contains("authority: \"127.0.0.1:9000\"") && yaml.contains("authority: \"127.0.0.1:9001\""), yaml);
        assertTrue(yaml.contains("duration: 5000ms"), yaml);
    }

    @Test
    void aRoundMustRunEveryTargetOnce() {
        List<Rounds.Target> ts = List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:1")), new Rounds.Target("b", URI.create("http://127.0.0.1:2")));
        assertThrows(IllegalArgumentException.class, () -> new Rounds(ts, "/x", new LoadProfile.Fixed(1, Duration.ofSeconds(1)),
                List.of(List.of(0, 0)), 1, Duration.ofSeconds(1), Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new Rounds(ts, "/x", new LoadProfile.Fixed(1, Duration.ofSeconds(2)),
                List.of(List.of(0, 1)), 1, Duration.ofSeconds(1), Duration.ofSeconds(2)), "the lead-in would be the whole block");
        assertThrows(IllegalArgumentException.class, () -> new Rounds(ts, "/x", new LoadProfile.Loops(1, 10),
                List.of(List.of(0, 1)), 1, Duration.ofSeconds(1), Duration.ofSeconds(1)), "a whole shape has no lead-in");
    }

    @Test
    void aBurstOrLoopsIsAWholeBlockThoughItHasNoPlannedLength() {
        // Seed 004's burst ended its run with an IllegalArgumentException: no planned length, so no lead-in "shorter than the block".
        List<Rounds.Target> ts = List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:1")), new Rounds.Target("b", URI.create("http://127.0.0.1:2")));
        for (LoadProfile whole : List.of(new LoadProfile.Burst(10_000, 10), new LoadProfile.Loops(200, 30))) {
            Rounds r = new Rounds(ts, "/x", whole, List.of(List.of(0, 1)), 1, Duration.ofSeconds(1), Duration.ZERO);
            assertTrue(r.wholeLoads(), whole.toString());
            assertEquals(whole, r.spec(1).profile());
        }
    }
}
