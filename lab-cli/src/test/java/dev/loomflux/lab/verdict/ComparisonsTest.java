package dev.loomflux.lab.verdict;

import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.FlowRuns;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.stats.Paired;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Comparisons from blocks: who wins, who is the same, and who takes part in no verdict. */
class ComparisonsTest {
    /** Rounds where the machine's speed swings by a third but a is {@code ratio} times b, plus 3% block noise. */
    static List<BlockRecord> blocks(int set, int rounds, double ratio, double drift, long seed) {
        Random rnd = new Random(seed);
        List<BlockRecord> out = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            double machine = 0.7 + 0.6 * rnd.nextDouble();
            double rpsA = 10_000 * machine * ratio * (1 + drift * r / rounds) * (1 + 0.03 * rnd.nextGaussian());
            double rpsB = 10_000 * machine * (1 + 0.03 * rnd.nextGaussian());
            out.add(block(set, r, "a", rpsA));
            out.add(block(set, r, "b", rpsB));
        }
        return out;
    }

    private static BlockRecord block(int set, int round, String target, double rps) {
        return block(set, round, target, rps, 50.0);
    }

    private static BlockRecord block(int set, int round, String target, double rps, double busyUsers) {
        return block(set, round, target, rps, busyUsers, 50);
    }

    /** @param users null for an open model, whose blocks Little's law does not check */
    private static BlockRecord block(int set, int round, String target, double rps, double busyUsers, Integer users) {
        double p50 = 50 / rps * 1000; // Little's law with 50 users
        return BlockRecord.builder().scenario("items").set(set).round(round).position(0).target(target).users(users).seconds(5)
                .requests((long) (rps * 5)).responses((long) (rps * 5)).errors(0).rps(rps).p50(p50).p99(p50 * 3).meanMs(p50).inFlight(busyUsers)
                .cpuMsPerRequest(10_000 / rps * 0.1).rssMb(300.0).gcMs(1.0).canaryUs(500.0).build();
    }

    private static PairComparison find(List<PairComparison> all, Metric m) {
        return all.stream().filter(c -> c.metricKind() == m).findFirst().orElseThrow();
    }

    @Test
    void aThirtyPercentLeadIsAWinDespiteTheMachine() {
        List<PairComparison> all = Comparisons.of(blocks(1, 20, 1.3, 0, 1), List.of("a", "b"));
        PairComparison t = find(all, Metric.THROUGHPUT);
        assertEquals(PairComparison.A, t.outcome(), t.toString());
        assertEquals(1.3, t.estimate().ratio(), 0.03);
        assertTrue(t.estimate().ci().get(0) > 1.05 && t.estimate().ci().get(1) < 1.4, t.toString());
        assertEquals(PairComparison.A, find(all, Metric.P50).outcome(), "a's latency is lower");
        assertTrue(t.sentence().matches("a ahead of b on throughput by (29|30)\\.\\d% \\(95% CI .*\\)"), t.sentence());
        assertTrue(find(all, Metric.P50).sentence().contains("lower"), find(all, Metric.P50).sentence());
    }

    /** A closed model's block of 5 users: {@code requests} whole requests in {@code seconds}, measured at {@code rps}. */
    private static BlockRecord fewUsers(int round, String target, double seconds, long requests, double rps, double meanMs) {
        return BlockRecord.builder().scenario("gateway").set(1).round(round).position(0).target(target).users(5).seconds(seconds).requests(requests)
                .responses(requests).errors(0).rps(rps).p50(meanMs).p99(meanMs * 1.05).meanMs(meanMs).inFlight(rps * meanMs / 1000)
                .cpuMsPerRequest(1.0).rssMb(300.0).gcMs(1.0).canaryUs(95.0).build();
    }

    /**
     * CI's sweep, 5 users over a 50 ms stub in 1 s blocks: each round mvc counted 20 requests per user and mvc-10 19,
     * though both served ~94.9/s, and every round's ratio read 1.053, just past the minimum effect, with no spread to
     * widen the interval: a winner from counting. Throughput is told no closer than whole requests allow.
     */
    @Test
    void tooFewWholeRequestsPerUserGiveNoWinner() {
        List<BlockRecord> blocks = new ArrayList<>();
        for (int r = 1; r <= 6; r++) {
            blocks.add(fewUsers(r, "mvc", 1, 100, 97.399, 52.2));
            blocks.add(fewUsers(r, "mvc-10", 1, 95, 92.491, 52.8));
        }
        PairComparison t = find(Comparisons.of(blocks, List.of("mvc", "mvc-10")), Metric.THROUGHPUT);
        assertEquals(1.053, t.estimate().ratio(), 0.001);
        assertEquals(PairComparison.UNDECIDED, t.outcome(), t.toString());
        assertTrue(t.estimate().ci().get(0) < 1.0 && t.estimate().ci().get(1) > 1.1, "+-2.6% and +-2.8% each side: " + t);
        assertTrue(t.judgement().note().contains("longer blocks (--block)"), t.toString());

        // The same users over 5 s blocks count 5 times the requests: a 10% lead is told.
        blocks.clear();
        for (int r = 1; r <= 6; r++) {
            blocks.add(fewUsers(r, "mvc", 5, 522, 104.4, 47.9));
            blocks.add(fewUsers(r, "mvc-10", 5, 475, 94.9, 52.7));
        }
        t = find(Comparisons.of(blocks, List.of("mvc", "mvc-10")), Metric.THROUGHPUT);
        assertEquals(PairComparison.A, t.outcome(), t.toString());
        assertTrue(t.estimate().ci().get(0) > 1.08, "0.5% and 0.6% each side: " + t);
    }

    /** A JMeter run's timing, as the registry has it: whole ms, Hyperfoil finer. */
    private static final Timing WHOLE_MS = new Timing(1, Drivers.ALL.finerThan(1));

    /** A block of a JMeter run: its medians in whole ms, as JMeter times requests. */
    private static BlockRecord wholeMs(int round, String target, double p50) {
        return BlockRecord.builder().scenario("gateway").set(1).round(round).position(0).target(target).users(20).seconds(1).requests(900)
                .responses(900).errors(0).rps(900).p50(p50).p99(p50 + 5).meanMs(p50).inFlight(19.8).cpuMsPerRequest(1.0).rssMb(300.0).gcMs(1.0)
                .canaryUs(95.0).build();
    }

    /**
     * JMeter's A/A run (mvc, mvc2; gateway over 20 ms): both medians read 22 ms in every round, a ratio of 1.000 with an
     * interval of nothing; 22 against 23 in every round read "equivalent within 5%" where the two may be 8.5% apart. Half
     * a step on each side widens the interval by what whole ms leave open.
     */
    @Test
    void latenciesInWholeMillisecondsAreToldNoCloserThanTheirStep() {
        List<BlockRecord> same = new ArrayList<>();
        List<BlockRecord> apart = new ArrayList<>();
        for (int r = 1; r <= 20; r++) {
            same.addAll(List.of(wholeMs(r, "mvc", 22), wholeMs(r, "mvc2", 22)));
            apart.addAll(List.of(wholeMs(r, "mvc", 22), wholeMs(r, "mvc2", 23)));
        }
        PairComparison exact = find(Comparisons.of(same, List.of("mvc", "mvc2")), Metric.P50);
        assertEquals(1.0, exact.estimate().ci().get(1) - exact.estimate().ci().get(0) + 1, 1e-9, "without the step, an interval of nothing: " + exact);
        PairComparison p = find(Comparisons.of(same, List.of("mvc", "mvc2"), WHOLE_MS), Metric.P50);
        // Still within 5% either way, now with what whole ms leave open.
        assertEquals(PairComparison.EQUIVALENT, p.outcome(), p.toString());
        assertTrue(p.estimate().ci().get(0) < 0.96 && p.estimate().ci().get(1) > 1.04, "half a ms on 22 ms, each side: " + p);
        PairComparison q = find(Comparisons.of(apart, List.of("mvc", "mvc2"), WHOLE_MS), Metric.P50);
        assertEquals(PairComparison.UNDECIDED, q.outcome(), q.toString());
        assertTrue(q.judgement().note().contains("whole ms"), q.toString());
        assertTrue(q.judgement().note().endsWith(": Hyperfoil (--driver hyperfoil) would"), "the registry's driver that times finer: " + q);
        PairComparison alone = find(Comparisons.of(apart, List.of("mvc", "mvc2"), new Timing(1, null)), Metric.P50);
        assertTrue(alone.judgement().note().endsWith("whole ms, too coarse to tell p50 closer than +-4.4%: no verdict"), "no driver times finer: " + alone);
        // Without the step, "equivalent within 5%", where 22 and 23 whole ms may be 21.5 and 23.5: 8.5% apart.
        assertEquals(PairComparison.EQUIVALENT, find(Comparisons.of(apart, List.of("mvc", "mvc2")), Metric.P50).outcome());
        // At 200 ms the same step is 0.25% a side: a 10% lead is told.
        List<BlockRecord> slow = new ArrayList<>();
        for (int r = 1; r <= 20; r++) {
            slow.addAll(List.of(wholeMs(r, "mvc", 200), wholeMs(r, "mvc2", 220)));
        }
        assertEquals(PairComparison.A, find(Comparisons.of(slow, List.of("mvc", "mvc2"), WHOLE_MS), Metric.P50).outcome());
    }

    /**
     * Two sets of JVMs, 45 rounds, each JVM at a level of its own for the whole run (sd {@code jvmSd}, the A/A runs stored
     * here show 3-4%), blocks with 6% noise and the machine moving 10% from round to round: how many of 400 runs give a winner.
     */
    private static int winners(double jvmSd, double ratio, long seed) {
        Random rnd = new Random(seed);
        int wins = 0;
        for (int run = 0; run < 400; run++) {
            double[][] level = new double[2][2];
            for (double[] t : level) {
                for (int s = 0; s < 2; s++) {
                    t[s] = Math.exp(jvmSd * rnd.nextGaussian());
                }
            }
            List<BlockRecord> blocks = new ArrayList<>();
            for (int r = 1; r <= 45; r++) {
                double machine = Math.exp(0.1 * rnd.nextGaussian());
                for (int s = 0; s < 2; s++) {
                    blocks.add(block(s + 1, r, "a", 10_000 * ratio * machine * level[0][s] * Math.exp(0.06 * rnd.nextGaussian()), 50.0, null));
                    blocks.add(block(s + 1, r, "b", 10_000 * machine * level[1][s] * Math.exp(0.06 * rnd.nextGaussian()), 50.0, null));
                }
            }
            String outcome = find(Comparisons.of(blocks, List.of("a", "b")), Metric.THROUGHPUT).outcome();
            wins += outcome.equals(ratio >= 1 ? PairComparison.A : PairComparison.B) || ratio == 1 && outcome.equals(PairComparison.B) ? 1 : 0;
        }
        return wins;
    }

    /**
     * Rounds cannot see a JVM's own level, only more JVMs can: the sets' spread goes into the interval. Without it, 21
     * of these 400 A/A runs gave a winner, with it 11; a true 20% lead is still found in 341 (387 without), and where
     * JVMs hold one level (sd 1%) a 10% lead in 342 (381).
     */
    @Test
    void theJvmsOwnLevelsAreInTheInterval() {
        assertTrue(winners(0.039, 1.0, 1) <= 15, "A/A");
        assertTrue(winners(0.039, 1.2, 2) >= 320, "a 20% lead");
        assertTrue(winners(0.01, 1.1, 3) >= 320, "a 10% lead between JVMs that hold one level");
    }

    @Test
    void theSameTargetTwiceIsEquivalent() {
        List<PairComparison> all = Comparisons.of(blocks(1, 20, 1.0, 0, 2), List.of("a", "b"));
        for (PairComparison c : all) {
            assertTrue(c.outcome().equals(PairComparison.EQUIVALENT) || c.outcome().equals(PairComparison.UNDECIDED), c.toString());
        }
        assertEquals(PairComparison.EQUIVALENT, find(all, Metric.THROUGHPUT).outcome());
    }

    @Test
    void aTargetThatDriftsAgainstEveryOtherTakesPartInNoVerdict() {
        List<BlockRecord> b = blocks(1, 20, 1.3, 0.6, 3);
        assertEquals(Set.of("a", "b"), Comparisons.drifting(b, List.of("a", "b")), "two targets: the pair drifts, either may be the one");
        PairComparison t = find(Comparisons.of(b, List.of("a", "b")), Metric.THROUGHPUT);
        assertEquals(PairComparison.UNDECIDED, t.outcome());
        assertNotNull(t.judgement().note());
        // With a third, steady target, only the drifting one is named.
        List<BlockRecord> three = new ArrayList<>(b);
        b.stream().filter(x -> x.target().equals("b")).forEach(x -> three.add(block(1, x.round(), "c", x.load().rps() * 1.01)));
        assertEquals(Set.of("a"), Comparisons.drifting(three, List.of("a", "b", "c")));
        assertEquals(PairComparison.EQUIVALENT, Comparisons.of(three, List.of("a", "b", "c")).stream()
                .filter(c -> c.metricKind() == Metric.THROUGHPUT && c.a().equals("b") && c.b().equals("c")).findFirst().orElseThrow().outcome());
    }

    @Test
    void ratiosThatWanderFromRoundToRoundGetAWiderInterval() {
        // Run aa-s21: mvc-vt under two names, gateway, 20 rounds of 1 s after a 30 s warmup, both JVMs still compiling.
        // Each one's CPU per request by round (ms); pooled over the rounds they made mvc-vt 19% "cheaper" (95% CI 6-30%).
        double[] a = {2.132, 1.59, 1.202, 1.029, 1.147, 0.821, 0.699, 0.569, 0.655, 0.625, 0.715, 0.794, 0.778, 0.645, 0.539, 0.592, 0.604, 0.772, 0.586, 0.707};
        double[] b = {1.745, 1.468, 1.268, 1.098, 1.17, 1.18, 1.053, 1.125, 1.28, 1.142, 0.93, 0.667, 0.771, 0.785, 0.921, 0.962, 0.725, 0.825, 0.838, 0.632};
        List<BlockRecord> blocks = new ArrayList<>();
        for (int r = 0; r < a.length; r++) {
            blocks.add(BlockRecord.builder().scenario("gateway").set(1).round(r + 1).position(0).target("a").seconds(1).requests(900).responses(900)
                    .errors(0).rps(900).p50(1.0).p99(3.0).meanMs(1.0).cpuMsPerRequest(a[r]).rssMb(300.0).gcMs(1.0).canaryUs(500.0).build());
            blocks.add(BlockRecord.builder().scenario("gateway").set(1).round(r + 1).position(1).target("b").seconds(1).requests(900).responses(900)
                    .errors(0).rps(900).p50(1.0).p99(3.0).meanMs(1.0).cpuMsPerRequest(b[r]).rssMb(300.0).gcMs(1.0).canaryUs(500.0).build());
        }
        PairComparison cpu = find(Comparisons.of(blocks, List.of("a", "b")), Metric.CPU_PER_REQUEST);
        assertEquals(PairComparison.UNDECIDED, cpu.outcome(), cpu.toString());
        assertEquals(0.807, cpu.estimate().ratio(), 0.001, "the estimate stays");
        assertTrue(cpu.estimate().ci().get(0) < 0.65 && cpu.estimate().ci().get(1) > 1.03, "0.698-0.937 as if the rounds were independent: " + cpu);
        assertTrue(cpu.judgement().note().startsWith("the per-round ratios wander"), cpu.judgement().note());
        // The same rounds with the ratio held where it ends (b's figures scaled to a's level per round, a 20% lead) stay a winner.
        List<BlockRecord> steady = new ArrayList<>();
        for (int r = 0; r < a.length; r++) {
            steady.add(BlockRecord.builder().scenario("gateway").set(1).round(r + 1).position(0).target("a").seconds(1).requests(900).responses(900)
                    .errors(0).rps(900).p50(1.0).p99(3.0).meanMs(1.0).cpuMsPerRequest(a[r]).rssMb(300.0).gcMs(1.0).canaryUs(500.0).build());
            steady.add(BlockRecord.builder().scenario("gateway").set(1).round(r + 1).position(1).target("b").seconds(1).requests(900).responses(900)
                    .errors(0).rps(900).p50(1.0).p99(3.0).meanMs(1.0).cpuMsPerRequest(a[r] * 1.25).rssMb(300.0).gcMs(1.0).canaryUs(500.0).build());
        }
        assertEquals(PairComparison.A, find(Comparisons.of(steady, List.of("a", "b")), Metric.CPU_PER_REQUEST).outcome());
    }

    @Test
    void twoJvmsOfOneJarAreComparedInTheirOwnRounds() {
        // a's second JVM runs 8% faster than its first for the whole run; b's two do not differ. The machine swings by a third.
        Random rnd = new Random(5);
        List<BlockRecord> b = new ArrayList<>();
        for (int r = 1; r <= 30; r++) {
            double machine = 0.7 + 0.6 * rnd.nextDouble();
            b.add(block(1, r, "a", 10_000 * machine * (1 + 0.03 * rnd.nextGaussian())));
            b.add(block(2, r, "a", 10_800 * machine * (1 + 0.03 * rnd.nextGaussian())));
            b.add(block(1, r, "b", 7_000 * machine * (1 + 0.03 * rnd.nextGaussian())));
            b.add(block(2, r, "b", 7_000 * machine * (1 + 0.03 * rnd.nextGaussian())));
        }
        Paired a = Comparisons.jvmRatio(b, "items", "a", 2);
        assertEquals(30, a.rounds());
        assertTrue(a.low() > 1.04 && a.high() < 1.12 && a.low() < 1.08 && a.high() > 1.08, a.describe());
        Paired same = Comparisons.jvmRatio(b, "items", "b", 2);
        assertTrue(same.low() > 0.95 && same.high() < 1.05, same.describe());
    }

    @Test
    void roundsPacedByTheLoadSideAreLeftOut() {
        // a is truly 30% ahead, but in 16 of 20 rounds the driver capped both at the same rate with 35 of 50 users busy.
        List<BlockRecord> b = new ArrayList<>();
        for (BlockRecord x : blocks(1, 20, 1.3, 0, 8)) {
            b.add(x.round() <= 16 ? block(1, x.round(), x.target(), 5200, 35) : x);
        }
        PairComparison t = find(Comparisons.of(b, List.of("a", "b")), Metric.THROUGHPUT);
        assertEquals(PairComparison.UNDECIDED, t.outcome(), "4 rounds left: " + t);
        assertTrue(t.judgement().note().contains("load side, not the targets, set the pace in 16 round(s)"), t.judgement().note());
        // Counted as rounds, they would have put a 30% lead at a few percent.
        List<BlockRecord> open = b.stream().map(x -> block(1, x.round(), x.target(), x.load().rps(), x.load().inFlight(), null)).toList();
        PairComparison counted = find(Comparisons.of(open, List.of("a", "b")), Metric.THROUGHPUT);
        assertTrue(counted.estimate().ratio() < 1.05 && !counted.outcome().equals(PairComparison.A), counted.toString());
    }

    @Test
    void aScenarioWhoseEveryRoundWasPacedStillGetsItsComparisonsAndWhy() {
        List<BlockRecord> b = blocks(1, 12, 1.3, 0, 8).stream().map(x -> block(1, x.round(), x.target(), 5200, 35)).toList();
        List<PairComparison> all = Comparisons.of(b, List.of("a", "b"));
        assertEquals(Comparisons.METRICS.size(), all.size(), all.toString());
        PairComparison t = find(all, Metric.THROUGHPUT);
        assertEquals(PairComparison.UNDECIDED, t.outcome(), t.toString());
        assertTrue(t.judgement().note().contains("set the pace in 12 round(s)"), t.judgement().note());
    }

    @Test
    void withThinkTimeLittlesLawCountsTheUsersInAPauseToo() {
        // 10 users pausing 100 ms over a 1 ms endpoint: ~99 responses/s with 0.1 users in a request.
        BlockRecord cycling = BlockRecord.builder().scenario("plaintext").set(1).round(1).position(0).target("a").users(10).thinkMs(100.0).seconds(1)
                .requests(99).responses(99).errors(0).rps(99).p50(1.0).p99(2.0).meanMs(1.0).inFlight(0.099).build();
        assertEquals(10.0, cycling.cyclingUsers(), 0.01);
        assertFalse(Comparisons.paced(cycling));
        // The same users at half that rate spent half their time neither in a request nor in a pause: the load side held them.
        BlockRecord held = BlockRecord.builder().scenario("plaintext").set(1).round(1).position(0).target("a").users(10).thinkMs(100.0).seconds(1)
                .requests(50).responses(50).errors(0).rps(50).p50(1.0).p99(2.0).meanMs(1.0).inFlight(0.05).build();
        assertTrue(Comparisons.paced(held), "5 of 10 users cycling");
        BlockRecord noThink = BlockRecord.builder().scenario("plaintext").set(1).round(1).position(0).target("a").users(10).seconds(1).requests(99)
                .responses(99).errors(0).rps(99).p50(1.0).p99(2.0).meanMs(1.0).inFlight(0.099).build();
        assertTrue(Comparisons.paced(noThink), "without think time 0.1 of 10 users busy is the load side's pace");
    }

    @Test
    void setsOfJvmsThatDisagreeGiveNoWinner() {
        List<BlockRecord> both = new ArrayList<>(blocks(1, 20, 1.4, 0, 4));
        both.addAll(blocks(2, 20, 0.93, 0, 5));
        PairComparison t = find(Comparisons.of(both, List.of("a", "b")), Metric.THROUGHPUT);
        assertEquals(PairComparison.UNDECIDED, t.outcome(), t.toString());
        assertTrue(t.judgement().note().contains("not every set of JVMs shows it (set 2 gives a/b 0.9"), t.judgement().note());
        // One JVM 14% ahead of its twin (an A/A run here had 11%) and a second set that does not repeat it: no winner. The rounds alone
        // put the pooled ratio beyond 5%; the JVMs' spread, read from the two sets, widens it past the line.
        List<BlockRecord> lottery = new ArrayList<>(blocks(1, 45, 1.14, 0, 11));
        lottery.addAll(blocks(2, 45, 1.03, 0, 12));
        PairComparison aa = find(Comparisons.of(lottery, List.of("a", "b")), Metric.THROUGHPUT);
        assertTrue(aa.estimate().ci().get(0) < 1.05 && aa.estimate().ci().get(1) > 1.1, "the JVMs' spread is in the interval: " + aa);
        assertEquals(PairComparison.UNDECIDED, aa.outcome(), aa.toString());
        assertTrue(aa.judgement().note().contains("set 2 gives a/b 1.0"), aa.judgement().note());
        // Lower is better: a's latency 25% under b's in both sets is a's win on p50 in both.
        List<BlockRecord> fast = new ArrayList<>(blocks(1, 20, 1.33, 0, 13));
        fast.addAll(blocks(2, 20, 1.3, 0, 14));
        assertEquals(PairComparison.A, find(Comparisons.of(fast, List.of("a", "b")), Metric.P50).outcome());
        // Sets that agree pool into one verdict, round by round: the geometric mean of their ratios.
        List<BlockRecord> agree = new ArrayList<>(blocks(1, 20, 1.3, 0, 6));
        agree.addAll(blocks(2, 20, 1.25, 0, 7));
        PairComparison pooled = find(Comparisons.of(agree, List.of("a", "b")), Metric.THROUGHPUT);
        assertEquals(PairComparison.A, pooled.outcome());
        assertEquals(20, pooled.estimate().rounds(), "two sets in the same round are one observation of the machine");
        assertEquals(Math.sqrt(1.3 * 1.25), pooled.estimate().ratio(), 0.03);
    }

    /** The crud flow's comparisons: where each part is, and its outcomes. */
    private static Map<String, List<PairComparison>> byWhere(List<PairComparison> all) {
        Map<String, List<PairComparison>> out = new LinkedHashMap<>();
        all.forEach(c -> out.computeIfAbsent(c.where(), k -> new ArrayList<>()).add(c));
        return out;
    }

    /** The same target twice on the crud flow: the flow and every step compared, none with a winner. */
    @Test
    void aFlowAndEachOfItsStepsAreComparedAndTheSameTargetTwiceWinsNone() {
        List<PairComparison> all = Comparisons.of(FlowRuns.blocks("a", "b", 20, null, 1, 21), List.of("a", "b"));
        Map<String, List<PairComparison>> where = byWhere(all);
        assertEquals(List.of("crud", "crud/create", "crud/read", "crud/update", "crud/delete"), List.copyOf(where.keySet()));
        assertEquals(List.of("throughput", "p50", "p99", "cpu-per-request"), where.get("crud").stream().map(PairComparison::metric).toList(),
                "the flow that is its scenario: every metric");
        for (String step : List.of("crud/create", "crud/read", "crud/update", "crud/delete")) {
            assertEquals(List.of("throughput", "p50", "p99"), where.get(step).stream().map(PairComparison::metric).toList(), "a step has no CPU of its own: " + step);
        }
        for (PairComparison c : all) {
            assertTrue(c.outcome().equals(PairComparison.EQUIVALENT) || c.outcome().equals(PairComparison.UNDECIDED), "A/A gave a winner: " + c);
            assertEquals(20, c.estimate().rounds(), c.toString());
        }
        PairComparison create = where.get("crud/create").get(0);
        assertEquals(List.of("crud", "create", "POST /items"), List.of(create.part().flow(), create.part().step(), create.part().request()));
        assertFalse(create.wholeScenario());
        assertTrue(where.get("crud").get(0).wholeScenario());
        assertTrue(create.sentence().startsWith("a and b equivalent on POST /items throughput within 5%") || create.sentence()
                .startsWith("POST /items throughput undecided between a and b"), create.sentence());
    }

    /** One step 20% slower on b: that step's latencies have a winner, the others none; b's whole iterations slow by 3%, within 5%. */
    @Test
    void aStepTwentyPercentSlowerIsThatStepsLoss() {
        List<PairComparison> all = Comparisons.of(FlowRuns.blocks("a", "b", 20, "read", 1.2, 22), List.of("a", "b"));
        Map<String, List<PairComparison>> where = byWhere(all);
        for (Metric m : List.of(Metric.P50, Metric.P99)) {
            PairComparison read = find(where.get("crud/read"), m);
            assertEquals(PairComparison.A, read.outcome(), read.toString());
            assertEquals(1 / 1.2, read.estimate().ratio(), 0.02, read.toString());
            assertEquals("GET /items/${id}", read.part().request());
        }
        assertTrue(find(where.get("crud/read"), Metric.P50).sentence().matches("a ahead of b on GET /items/\\$\\{id} median latency: 1[67]\\.\\d% lower \\(95% CI .*\\)"),
                find(where.get("crud/read"), Metric.P50).sentence());
        for (PairComparison c : all) {
            if (!c.where().equals("crud/read") || c.metricKind() == Metric.THROUGHPUT) {
                assertFalse(c.outcome().equals(PairComparison.A) || c.outcome().equals(PairComparison.B), "only the slow step's latency: " + c);
            }
        }
    }

    @Test
    void aRoundMissingFromOneSetStillCountsWithTheOther() {
        List<BlockRecord> both = new ArrayList<>(blocks(1, 20, 1.3, 0, 8));
        blocks(2, 20, 1.3, 0, 9).stream().filter(b -> b.round() <= 15).forEach(both::add);
        both.addAll(blocks(2, 25, 1.3, 0, 10).stream().filter(b -> b.round() > 20).toList());
        PairComparison t = find(Comparisons.of(both, List.of("a", "b")), Metric.THROUGHPUT);
        assertEquals(25, t.estimate().rounds(), t.toString());
        assertEquals(1.3, t.estimate().ratio(), 0.04);
    }
}
