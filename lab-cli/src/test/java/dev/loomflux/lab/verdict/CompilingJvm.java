package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One JVM of a simulated run ({@link NoiseModel#run}) whose JIT still compiles through the rounds, for the graded JIT rule's
 * simulation (docs/statistics.md, "A JIT still compiling in the rounds"). Its compile load decays from round to round:
 * in round r it compiles for {@code start} x exp(-(r - 1) / tau) of the round's time, tau such that over all the run's
 * rounds that comes to {@code share} of their time (hsperfdata's jit_ms, as {@link Comparisons#jitShares} reads it).
 * {@code ownPart} of a round's compiling falls in its own block's window ({@code compiler_cpu_ms}, at most 90% of the
 * window), the rest evenly in the round's other blocks ({@code others_compiler_cpu_ms}): on the target's one CPU its
 * compiler threads take their CPU too. Its own blocks are slowed by 3 x their window's compile share q: throughput
 * x (1 - 3q), latencies and CPU per request / (1 - 3q), at least x0.1, the bound the JVMs measured past the limit stayed
 * within (their code not yet compiled, and the CPU the compiler takes). The other blocks lose the CPU it takes: x (1 - q).
 *
 * @param target  the compiling JVM's target
 * @param set     and set
 * @param share   its JIT time over the run's rounds, a share of their time
 * @param start   its share of round 1's time
 * @param ownPart the part of a round's compiling in its own block's window
 */
record CompilingJvm(String target, int set, double share, double start, double ownPart) {
    /** The most a block's window can hold of compiling, as a share of one CPU: the target's one CPU, the app keeping some. */
    static final double MOST = 0.9;
    /** How far its own window's compile share q slows the compiling JVM's block: by 3q (docs/statistics.md, "A JIT still compiling in the rounds"). */
    static final double SLOWING = 3;

    /**
     * One of the run's JVMs, uniformly; its share of the rounds' time uniform in [{@code low}, {@code high}], its share of
     * round 1 in [0.2, 0.6] (the cold runs compiled through 35-57% of theirs), its own window's part in [0.4, 0.8].
     */
    static CompilingJvm draw(List<String> targets, int sets, double low, double high, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int jvm = rnd.nextInt(targets.size() * sets);
        return new CompilingJvm(targets.get(jvm / sets), jvm % sets + 1, low + (high - low) * rnd.nextDouble(), 0.2 + 0.4 * rnd.nextDouble(),
                0.4 + 0.4 * rnd.nextDouble());
    }

    /** Its share of round r's time (rounds from 1), of {@code rounds}. */
    double at(int r, int rounds) {
        return start * Math.exp(-(r - 1) / tau(rounds));
    }

    /** The decay (in rounds) whose mean share over the rounds is {@link #share}; bisection, the mean rising with tau. */
    double tau(int rounds) {
        double lo = 1e-3;
        double hi = 1e5;
        for (int i = 0; i < 100; i++) {
            double mid = Math.sqrt(lo * hi);
            double mean = 0;
            for (int r = 0; r < rounds; r++) {
                mean += start * Math.exp(-r / mid) / rounds;
            }
            if (mean < share) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.sqrt(lo * hi);
    }

    /**
     * The run's blocks with this JVM compiling, in the same order.
     *
     * @param figures whether the blocks carry the compiler threads' CPU ({@code false}: as a file written before they did,
     *                every block counting as quiet); jit_ms they carry either way
     */
    List<BlockRecord> apply(List<BlockRecord> blocks, boolean figures) {
        Map<Integer, List<BlockRecord>> byRound = new TreeMap<>();
        blocks.forEach(b -> byRound.computeIfAbsent(b.round(), r -> new ArrayList<>()).add(b));
        int rounds = byRound.size();
        List<BlockRecord> out = new ArrayList<>(blocks.size());
        byRound.forEach((r, list) -> {
            double roundMs = list.stream().mapToDouble(b -> b.load().seconds()).sum() * 1000;
            double compileMs = at(r, rounds) * roundMs;
            BlockRecord mine = list.stream().filter(this::compiles).findFirst().orElseThrow();
            double ownMs = Math.min(ownPart * compileMs, MOST * mine.load().seconds() * 1000);
            double spill = (compileMs - ownMs) / (list.size() - 1);
            for (BlockRecord b : list) {
                boolean own = compiles(b);
                double windowMs = b.load().seconds() * 1000;
                double ms = Math.min(own ? ownMs : spill, MOST * windowMs);
                out.add(slowed(b, (own ? SLOWING : 1) * ms / windowMs, own ? ms : 0, own ? 0 : ms, own ? compileMs : 0, figures));
            }
        });
        return out;
    }

    private boolean compiles(BlockRecord b) {
        return b.target().equals(target) && b.set() == set;
    }

    /** @param slowing the share of its speed the block loses */
    private static BlockRecord slowed(BlockRecord b, double slowing, double ownMs, double othersMs, double jitMs, boolean figures) {
        double f = Math.max(0.1, 1 - slowing);
        double rps = Result.round(b.load().rps() * f);
        double p50 = Result.round(b.latency().p50() / f);
        return BlockRecord.builder().scenario(b.scenario()).set(b.set()).round(b.round()).position(b.turn().position()).target(b.target())
                .users(b.load().users()).seconds(b.load().seconds()).requests(Math.round(rps * b.load().seconds()))
                .responses(Math.round(rps * b.load().seconds())).errors(0).rps(rps).p50(p50).p99(Result.round(b.latency().p99() / f))
                .meanMs(Result.round(p50 * 1.1)).inFlight(b.load().inFlight()).cpuMsPerRequest(Result.round(b.resources().cpuMsPerRequest() / f))
                .rssMb(b.resources().rssMb()).reconnections(0L).jitMs(jitMs).compilerCpuMs(figures ? ownMs : null, figures ? othersMs : null).build();
    }
}
