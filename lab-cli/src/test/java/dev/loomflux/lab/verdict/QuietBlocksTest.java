package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The graded JIT rule: a pair of blocks in which a JIT compiled past 2% of a CPU, or only one of which another JVM's JIT
 * robbed, is left out of the comparison, the drift check and the JVMs' levels; nothing is widened by a JVM's share of the
 * rounds' JIT time
 * (docs/statistics.md, "A JIT still compiling in the rounds").
 */
class QuietBlocksTest {
    private static final List<String> AB = List.of("a", "b");

    /**
     * Rounds of 5 s blocks under a machine that swings by a third, 3% block noise, a {@code ratio} times b; in rounds up to
     * {@code compiledUpTo} b's JIT takes {@code ownMs} of CPU over its own block (slowing it to {@code slowed}) and
     * {@code othersMs} over a's; else both compilers 10 ms (0.2% of a CPU). {@code null} ms: no figures, as an older file.
     */
    static List<BlockRecord> rounds(int set, int rounds, double ratio, int compiledUpTo, Double ownMs, Double othersMs, double slowed, long seed) {
        Random rnd = new Random(seed);
        List<BlockRecord> out = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            double machine = 0.7 + 0.6 * rnd.nextDouble();
            boolean compiling = r <= compiledUpTo;
            double rpsA = 10_000 * machine * ratio * (1 + 0.03 * rnd.nextGaussian());
            double rpsB = 10_000 * machine * (compiling ? slowed : 1) * (1 + 0.03 * rnd.nextGaussian());
            out.add(block(set, r, "a", rpsA, ownMs == null ? null : 10.0, compiling ? othersMs : ownMs == null ? null : 10.0));
            out.add(block(set, r, "b", rpsB, compiling ? ownMs : ownMs == null ? null : 10.0, ownMs == null ? null : 10.0));
        }
        return out;
    }

    private static BlockRecord block(int set, int round, String target, double rps, Double ownMs, Double othersMs) {
        double p50 = 50 / rps * 1000;
        return BlockRecord.builder().scenario("items").set(set).round(round).position(0).target(target).users(50).seconds(5)
                .requests((long) (rps * 5)).responses((long) (rps * 5)).errors(0).rps(rps).p50(p50).p99(p50 * 3).meanMs(p50).inFlight(50.0)
                .cpuMsPerRequest(10_000 / rps * 0.1).rssMb(300.0).gcMs(1.0).canaryUs(500.0).compilerCpuMs(ownMs, othersMs).build();
    }

    private static PairComparison throughput(List<PairComparison> all) {
        return all.stream().filter(c -> c.metricKind() == Metric.THROUGHPUT).findFirst().orElseThrow();
    }

    /**
     * An A/A pair in which b's JIT compiled through its first 8 of 20 rounds, each of those b blocks at 0.7 of its speed:
     * with the compiler figures those blocks are left out, and the 12 rounds left find the two equivalent (ratio within 2%
     * of 1); the same blocks without the figures (an older file) count as quiet and are not equivalent.
     */
    @Test
    void blocksInWhichAJitCompiledAreLeftOutAndTheRestDecide() {
        List<BlockRecord> loud = rounds(1, 20, 1.0, 8, 600.0, 300.0, 0.7, 1);
        PairComparison kept = throughput(Comparisons.of(loud, AB));
        assertEquals(PairComparison.EQUIVALENT, kept.outcome(), kept.toString());
        assertEquals(12, kept.estimate().rounds());
        assertEquals(8, kept.estimate().compilingRounds());
        assertEquals(1.0, kept.estimate().ratio(), 0.02);
        assertNull(kept.judgement().note(), "a decided comparison carries its left-out rounds in compiling_rounds, not a note");

        PairComparison unknown = throughput(Comparisons.of(rounds(1, 20, 1.0, 8, null, null, 0.7, 1), AB));
        assertEquals(20, unknown.estimate().rounds());
        assertNull(unknown.estimate().compilingRounds());
        assertNotEquals(PairComparison.EQUIVALENT, unknown.outcome(), unknown.toString());
    }

    /**
     * The limit is 2% of one CPU over a 5 s window (100 ms): a pair goes when either block's own JIT passed it, or when the
     * windows' compiler threads, every JVM's together, differ by more than it; another JVM's compiling that lands on both
     * alike stays, as it cancels in their ratio.
     */
    @Test
    void aPairGoesWhenEitherCompiledOrOnlyOneWasRobbed() {
        BlockRecord quiet = block(1, 1, "b", 1000, 10.0, 10.0);
        assertFalse(QuietBlocks.apart(block(1, 1, "a", 1000, 100.0, 0.0), block(1, 1, "b", 1000, 0.0, 0.0)), "2.0% is within the limit");
        assertTrue(QuietBlocks.apart(block(1, 1, "a", 1000, 110.0, 0.0), quiet), "a's own JIT at 2.2%");
        assertTrue(QuietBlocks.apart(block(1, 1, "a", 1000, 10.0, 150.0), quiet), "another JVM's JIT took 3% of a's window, 0.2% of b's");
        assertFalse(QuietBlocks.apart(block(1, 1, "a", 1000, 10.0, 150.0), block(1, 1, "b", 1000, 10.0, 150.0)), "3% of both windows");
        assertFalse(QuietBlocks.apart(block(1, 1, "a", 1000, null, null), block(1, 1, "b", 1000, null, null)), "no figures: quiet");

        List<BlockRecord> spilled = rounds(1, 20, 1.3, 3, 600.0, 120.0, 0.7, 2);
        assertEquals(0, QuietBlocks.loudRounds(spilled, "a", 1));
        assertEquals(3, QuietBlocks.loudRounds(spilled, "b", 1));
        PairComparison c = throughput(Comparisons.of(spilled, AB));
        assertEquals(PairComparison.A, c.outcome(), c.toString());
        assertEquals(17, c.estimate().rounds());
        assertEquals(3, c.estimate().compilingRounds());

        // A third JVM compiling through 5 rounds, 6% of both a's and b's windows, each slowed to 0.7: kept, and a/b unmoved.
        List<BlockRecord> alike = new ArrayList<>();
        for (BlockRecord x : rounds(1, 20, 1.3, 0, 10.0, 10.0, 1, 2)) {
            boolean robbed = x.round() <= 5;
            alike.add(block(1, x.round(), x.target(), x.load().rps() * (robbed ? 0.7 : 1), 10.0, robbed ? 300.0 : 10.0));
        }
        PairComparison kept = throughput(Comparisons.of(alike, AB));
        assertEquals(20, kept.estimate().rounds());
        assertNull(kept.estimate().compilingRounds());
        assertEquals(PairComparison.A, kept.outcome(), kept.toString());
        assertEquals(1.3, kept.estimate().ratio(), 0.03);
    }

    /**
     * Fewer than the minimum rounds left: every round is judged, each pair that compiled allowed to be off by what its JIT
     * could have moved it (3x its compile share, here 12% of a CPU: 1 - 0.36). A 30% lead with b slowed to 0.7 in 16 of 20
     * rounds is not told from that bound and gets no verdict, its note naming the JVM and what to set; a fourfold lead
     * whose JIT took 3% of a CPU (PairedIT's sweep: mvc over 10-thread mvc-10) is told over all 20 rounds. Past a third
     * of a CPU nothing bounds the JVM's speed: such pairs stay out, and where too few rounds are left, no verdict. Of two sets, the JVM is named with its set.
     */
    @Test
    void tooFewQuietRoundsAreJudgedAllWithinWhatTheJitCouldMove() {
        PairComparison c = throughput(Comparisons.of(rounds(1, 20, 1.3, 16, 600.0, 300.0, 0.7, 3), AB));
        assertEquals(PairComparison.UNDECIDED, c.outcome(), c.toString());
        assertEquals(16, c.estimate().compilingRounds());
        assertEquals(20, c.estimate().rounds());
        assertTrue(c.estimate().ci().get(0) < 1.3 * 0.7 && c.estimate().ci().get(1) > 1.3 / 0.7, "the bound spans both ways: " + c);
        assertEquals("b's JIT compiled past 2% of a CPU in the blocks of 16 of 20 rounds; without them too few would be left, so every round is "
                + "judged, each of those allowed to be off by what its JITs could have moved it (3x the compile share): no verdict (a longer "
                + "--warmup or more --lead-in-rounds lets the JIT finish first)", c.judgement().note());

        PairComparison capped = throughput(Comparisons.of(rounds(1, 20, 3.75, 16, 150.0, 10.0, 0.95, 3), AB));
        assertEquals(PairComparison.A, capped.outcome(), capped.toString());
        assertEquals(20, capped.estimate().rounds());
        assertEquals(16, capped.estimate().compilingRounds());
        assertEquals(3.75 / 0.95, capped.estimate().ratio(), 0.15);

        // Past a third of a CPU in 4 of the 16 rounds: those stay out, the other 16 are judged within their bounds.
        List<BlockRecord> some = rounds(1, 20, 3.75, 16, 150.0, 10.0, 0.95, 3).stream()
                .map(x -> x.round() <= 4 && x.target().equals("b") ? block(1, x.round(), "b", x.load().rps(), 1_700.0, 10.0) : x).toList();
        PairComparison partly = throughput(Comparisons.of(some, AB));
        assertEquals(PairComparison.A, partly.outcome(), partly.toString());
        assertEquals(16, partly.estimate().rounds());

        PairComparison unbounded = throughput(Comparisons.of(rounds(1, 20, 3.75, 16, 1_700.0, 10.0, 0.95, 3), AB));
        assertEquals(PairComparison.UNDECIDED, unbounded.outcome(), unbounded.toString());
        assertEquals(4, unbounded.estimate().rounds());
        assertEquals("b's JIT compiled past 2% of a CPU in the blocks of 16 of 20 rounds: those blocks left out, too few rounds left: "
                + "no verdict (a longer --warmup or more --lead-in-rounds lets the JIT finish first)", unbounded.judgement().note());

        List<BlockRecord> two = new ArrayList<>(rounds(1, 20, 1.3, 0, 600.0, 300.0, 0.7, 4));
        two.addAll(rounds(2, 20, 1.3, 5, 600.0, 300.0, 0.7, 5));
        assertEquals(new QuietBlocks.LeftOut(5, 20, "b#2's JIT"), QuietBlocks.leftOut(two, "a", "b"));
        PairComparison pooled = throughput(Comparisons.of(two, AB));
        assertEquals(PairComparison.A, pooled.outcome(), pooled.toString());
        assertEquals(5, pooled.estimate().compilingRounds());
        // The rounds that lost set 2's blocks still count with set 1's.
        assertEquals(20, pooled.estimate().rounds());
    }

    /**
     * No cliff: a JVM whose JIT took 6% or 34% of the rounds' time (hsperfdata's jit_ms) in blocks whose compiler threads
     * stayed under the limit widens nothing. Its 30% lead stands at 6% as at 0%, the interval the same; the share stays
     * information for notes.
     */
    @Test
    void aJvmsShareOfTheRoundsJitTimeNoLongerWidensTheInterval() {
        List<BlockRecord> quiet = rounds(1, 20, 1.3, 0, 10.0, 10.0, 1, 6);
        PairComparison none = throughput(Comparisons.of(quiet, AB));
        for (double ms : new double[] {600, 3_400}) {
            List<BlockRecord> busy = quiet.stream().map(b -> b.withJitMs(b.target().equals("b") ? ms : 20.0)).toList();
            PairComparison c = throughput(Comparisons.of(busy, AB));
            assertEquals(PairComparison.A, c.outcome(), c.toString());
            assertEquals(none.estimate(), c.estimate());
        }
        List<BlockRecord> six = quiet.stream().map(b -> b.withJitMs(b.target().equals("b") ? 600.0 : 20.0)).toList();
        assertEquals(Map.of("b", "b's JIT still compiled through the rounds (6.0% of their time; limit 5%)"), Comparisons.compiling(Comparisons.jitShares(six)));
        assertTrue(Comparisons.jitQuiet(5.0));
        assertFalse(Comparisons.jitQuiet(5.1));
        assertTrue(Comparisons.jitQuiet(null));
    }

    /**
     * The drift check sees the kept blocks: b slowed to 0.6 in its first 10 of 30 rounds while its JIT compiled reads as a
     * drift (last third against first) without the figures, and as none with them; the pair is then equivalent.
     */
    @Test
    void theDriftCheckSeesOnlyTheBlocksKept() {
        assertEquals(Set.of("a", "b"), Comparisons.drifting(rounds(1, 30, 1.0, 10, null, null, 0.6, 7), AB));
        List<BlockRecord> loud = rounds(1, 30, 1.0, 10, 600.0, 300.0, 0.6, 7);
        assertEquals(Set.of(), Comparisons.drifting(loud, AB));
        assertEquals(PairComparison.EQUIVALENT, throughput(Comparisons.of(loud, AB)).outcome());
    }

    /** compiling_rounds is written under its name, absent where none, and read back. */
    @Test
    void compilingRoundsRoundTrip() throws Exception {
        PairComparison c = throughput(Comparisons.of(rounds(1, 20, 1.0, 8, 600.0, 300.0, 0.7, 1), AB));
        var tree = Json.tree(c);
        assertEquals(8, tree.path("compiling_rounds").asInt());
        assertEquals(c, Json.read(tree.toString(), PairComparison.class));
        assertTrue(Json.tree(throughput(Comparisons.of(rounds(1, 20, 1.0, 0, 10.0, 10.0, 1, 1), AB))).path("compiling_rounds").isMissingNode());
    }
}
