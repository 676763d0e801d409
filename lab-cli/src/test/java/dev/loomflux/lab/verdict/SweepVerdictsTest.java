package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.experiment.Sweep;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.SweepMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The map's verdicts on the crossover that theory fixes (#12): mvc with 10 Tomcat threads against
 * mvc-vt behind a 50 ms downstream, closed users. Both serve users / 0.05 s until mvc-10's 10
 * threads cap it at 200 rps; mvc-vt keeps rising. Figures as three repeats would give them, with a
 * few percent of noise.
 */
class SweepVerdictsTest {
    private static final Sweep.Axis USERS = Sweep.axis("users=5,50,100", "--vary");

    @Test
    void equalAtFiveUsersAndMvcVtClearlyAheadAtFiftyAndAHundred() {
        List<SweepVerdicts.Entry> entries = new ArrayList<>();
        double[] noise = {0.99, 1.0, 1.01};
        for (int users : USERS.values()) {
            double vt = users / 0.0505;
            double ten = Math.min(vt, 10 / 0.0505);
            for (int r = 0; r < 3; r++) {
                entries.add(entry("mvc-10", users, ten * noise[r], 50.5 * users / Math.min(users, 10) * noise[2 - r], true));
                entries.add(entry("mvc-vt", users, vt * noise[2 - r], 50.5 * noise[r], true));
            }
        }
        SweepMap map = SweepVerdicts.of(List.of(USERS), List.of("mvc-10", "mvc-vt"), List.of("gateway-delay50"), entries);
        assertEquals(3, map.cells().size());
        assertEquals(SweepMap.UNCLEAR, winner(map, 5, Metric.THROUGHPUT).verdict(), "5 users: both at 99 rps");
        for (int users : List.of(50, 100)) {
            SweepMap.Winner w = winner(map, users, Metric.THROUGHPUT);
            assertTrue(w.clear(), users + " users " + w);
            assertEquals("mvc-vt", w.leader());
            assertEquals(users == 50 ? 400.0 : 900.0, w.marginPct(), 1.0, "mvc-vt / mvc-10 - 1, in %");
            assertTrue(winner(map, users, Metric.P99).clear() && winner(map, users, Metric.P99).leader().equals("mvc-vt"));
        }
        assertEquals(List.of(), map.crossovers(), "no crossover: at 5 users neither side is clear");
        SweepMap.TargetFigures ten = map.cells().get(2).targets().get(0);
        assertEquals("mvc-10", ten.target());
        assertEquals(3, ten.n());
        assertEquals(198.0, ten.metrics().get("throughput_rps").median(), 0.1);
    }

    @Test
    void aCrossoverIsNamedOnlyBetweenTwoClearCellsAndAnUnsteadyCellHasNoWinner() {
        List<SweepVerdicts.Entry> entries = new ArrayList<>();
        double[] noise = {0.99, 1.0, 1.01};
        for (int users : USERS.values()) {
            for (int r = 0; r < 3; r++) {
                // mvc-10 ahead at 5 users, mvc-vt from 50 on; mvc-vt not steady once at 100
                entries.add(entry("mvc-10", users, (users == 5 ? 120 : 100) * noise[r], 50, true));
                entries.add(entry("mvc-vt", users, (users == 5 ? 100 : 300) * noise[r], 50, !(users == 100 && r == 1)));
            }
        }
        SweepMap map = SweepVerdicts.of(List.of(USERS), List.of("mvc-10", "mvc-vt"), List.of("gateway-delay50"), entries);
        assertEquals("mvc-10", winner(map, 5, Metric.THROUGHPUT).leader());
        assertTrue(winner(map, 5, Metric.THROUGHPUT).clear());
        assertEquals(SweepMap.UNSTEADY, winner(map, 100, Metric.THROUGHPUT).verdict());
        assertTrue(map.crossovers().contains("gateway-delay50: mvc-vt overtakes mvc-10 on throughput between 5 users and 50 users"),
                map.crossovers().toString());
        // Equal p99 everywhere: no cell has a clear p99 winner, so no sentence about it.
        assertTrue(map.crossovers().stream().noneMatch(c -> c.contains("p99")), map.crossovers().toString());
    }

    @Test
    void withThreeTargetsACrossoverIsFoundPairByPairWhereNoCellHasAWinner() {
        // delay 0: mvc and mvc-vt tie ahead of webflux; delay 100: mvc's 200 threads cap it, webflux and mvc-vt tie ahead.
        Sweep.Axis delay = Sweep.axis("delay=0,100", "--vary");
        Map<String, double[]> rps = Map.of("mvc", new double[] {3000, 2000}, "mvc-vt", new double[] {3000, 3450}, "webflux", new double[] {2500, 3500});
        double[] noise = {0.99, 1.0, 1.01};
        List<SweepVerdicts.Entry> entries = new ArrayList<>();
        for (int d = 0; d < 2; d++) {
            for (String t : List.of("mvc", "mvc-vt", "webflux")) {
                for (int r = 0; r < 3; r++) {
                    entries.add(entry(t, Map.of("delay", delay.values().get(d)), rps.get(t)[d] * noise[r], 50, true));
                }
            }
        }
        SweepMap map = SweepVerdicts.of(List.of(delay), List.of("mvc", "mvc-vt", "webflux"), List.of("gateway"), entries);
        for (SweepMap.Cell c : map.cells()) {
            assertEquals(SweepMap.UNCLEAR, c.winner("throughput_rps").verdict(), "two targets tie at the top of " + c.at());
        }
        List<String> throughput = map.crossovers().stream().filter(c -> c.contains("throughput")).toList();
        assertEquals(List.of("gateway: webflux overtakes mvc on throughput between " + delay.describe(0) + " and " + delay.describe(100)), throughput);
    }

    @Test
    void aTargetWithoutAResultInACellIsNamedThere() {
        List<SweepVerdicts.Entry> entries = new ArrayList<>();
        for (int users : USERS.values()) {
            for (int r = 0; r < 3; r++) {
                entries.add(entry("mvc-10", users, 100 + r, 50, true));
                entries.add(entry("mvc-vt", users, 300 + r, 50, true));
                if (users == 100) {
                    // one repeat failed, the others measured: the target is in the cell
                    entries.add(new SweepVerdicts.Entry("webflux", "gateway-delay50", Map.of("users", users), r == 0
                            ? Result.failed("webflux", "gateway-delay50", "not measured: the target had exited (exit code 137)") : entry("webflux", users, 200, 50, true).result()));
                } else if (users == 50) {
                    entries.add(new SweepVerdicts.Entry("webflux", "gateway-delay50", Map.of("users", users), Result.failed("webflux", "gateway-delay50", "failed")));
                }
            }
        }
        // at 5 users webflux has no entry at all (it never started)
        SweepMap map = SweepVerdicts.of(List.of(USERS), List.of("mvc-10", "mvc-vt", "webflux"), List.of("gateway-delay50"), entries);
        Map<Integer, List<String>> unmeasured = new java.util.TreeMap<>();
        map.cells().forEach(c -> unmeasured.put(c.at().get("users"), c.unmeasured()));
        assertEquals(List.of("webflux"), unmeasured.get(5));
        assertEquals(List.of("webflux"), unmeasured.get(50));
        assertEquals(null, unmeasured.get(100));
        assertEquals("mvc-vt", winner(map, 50, Metric.THROUGHPUT).leader(), "the winner among those measured");
    }

    @Test
    void singleRunsNameTheLeaderButGiveNoVerdict() {
        List<SweepVerdicts.Entry> entries = List.of(entry("a", 5, 100, 10, true), entry("b", 5, 300, 10, true));
        SweepMap map = SweepVerdicts.of(List.of(Sweep.axis("users=5", "--vary")), List.of("a", "b"), List.of("gateway-delay50"), entries);
        SweepMap.Winner w = winner(map, 5, Metric.THROUGHPUT);
        assertEquals(SweepMap.TOO_FEW, w.verdict());
        assertEquals("b", w.leader());
        assertEquals(200.0, w.marginPct());
    }

    @Test
    void fromPairedRoundsAWinnerBeatsEveryOtherTargetAndEquivalentCellsSaySo() {
        // One result per target and cell over its blocks; the verdicts come from the paired comparisons alone.
        List<SweepVerdicts.Entry> entries = new ArrayList<>();
        List<SweepVerdicts.PairOutcome> pairs = new ArrayList<>();
        for (int users : USERS.values()) {
            entries.add(entry("mvc-10", users, Math.min(users, 10) / 0.0505, 50, true));
            entries.add(entry("mvc-vt", users, users / 0.0505, 50, true));
            Map<String, Integer> at = Map.of("users", users);
            pairs.add(new SweepVerdicts.PairOutcome("gateway-delay50", at, Metric.THROUGHPUT, "mvc-10", "mvc-vt",
                    users == 5 ? PairComparison.EQUIVALENT : PairComparison.B));
            pairs.add(new SweepVerdicts.PairOutcome("gateway-delay50", at, Metric.P99, "mvc-10", "mvc-vt", PairComparison.UNDECIDED));
        }
        SweepMap map = SweepVerdicts.ofRounds(List.of(USERS), List.of("mvc-10", "mvc-vt"), List.of("gateway-delay50"), entries, pairs);
        assertEquals(SweepMap.EQUIVALENT, winner(map, 5, Metric.THROUGHPUT).verdict(), "5 users: both at 99 rps, within 5%");
        assertTrue(winner(map, 50, Metric.THROUGHPUT).clear() && winner(map, 50, Metric.THROUGHPUT).leader().equals("mvc-vt"));
        assertEquals(SweepMap.UNCLEAR, winner(map, 100, Metric.P99).verdict());
        // Only the metrics the rounds compare get a verdict: no errors or memory winner drawn from one figure per target.
        assertEquals(List.of("throughput_rps", "p50_ms", "p99_ms", "cpu_ms_per_request"),
                map.cells().get(0).winners().stream().map(SweepMap.Winner::metric).toList());
        assertTrue(map.method().contains("interleaved rounds"), map.method());
        assertEquals(List.of(), map.crossovers(), "equivalent is not a lead: no crossover from 5 users to 50");
    }

    private static SweepMap.Winner winner(SweepMap map, int users, Metric m) {
        return map.cells().stream().filter(c -> c.at().get("users") == users).findFirst().orElseThrow().winner(m.summaryName());
    }

    private static SweepVerdicts.Entry entry(String target, int users, double rps, double p99, boolean steady) {
        return entry(target, Map.of("users", users), rps, p99, steady);
    }

    private static SweepVerdicts.Entry entry(String target, Map<String, Integer> at, double rps, double p99, boolean steady) {
        int users = at.getOrDefault("users", 100);
        Result r = Results.result(String.format(java.util.Locale.ROOT, "{'target': '%s', 'scenario': 'gateway-delay50', 'status': 'ok', 'requests': 1000, "
                + "'throughput_rps': %.3f, 'latency_ms': {'p50': %.3f, 'p99': %.3f}, 'errors': {'total': 0}, "
                + "'series': [{'t': 0, 'rps': %.3f, 'errors': 0, 'users': %d, 'cpu_pct': 50.0, 'rss_mb': 200.0, 'threads': 30}], "
                + "'steady_state': {'reached': %s, 'steady': %s}}", target, rps, p99 * 0.9, p99, rps, users, steady, steady));
        return new SweepVerdicts.Entry(target, at.containsKey("users") ? "gateway-delay50" : "gateway", at, r);
    }
}
