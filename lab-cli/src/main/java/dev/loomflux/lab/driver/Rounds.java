package dev.loomflux.lab.driver;

import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.LoadProfile;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Interleaved measurement of several targets (Abedi and Brecht, ICPE 2017): in every round each
 * target gets one block of the same load, in that round's order, while the others idle. A change
 * of the machine's speed that lasts longer than a round then moves every target of the round alike,
 * and the per-round ratios of two targets keep what differs between them.
 *
 * @param targets the targets, each with its own connection pool, open from the first block to the last
 * @param block   one block's load: fixed users or a rate, for the block's duration, its lead-in included; or a whole shape
 *                (stages, loops, a burst), each block all of it ({@link WholeLoads})
 * @param order   per round, the targets' indexes in the order they run; each a permutation of all of them
 * @param leadIn  the first part of every block, loaded but not measured: whole seconds, shorter than the block
 * @param mix     the flows each user's iterations run; null: one GET of {@code path} ({@link LoadSpec#mix()})
 */
public record Rounds(List<Target> targets, String path, LoadProfile block, List<List<Integer>> order, int threads, Duration requestTimeout,
                     Duration leadIn, Mix mix) {
    /** One target of the rounds, as named in results. */
    public record Target(String name, URI base) {
    }

    /** Called from driver threads as blocks start and end; keep it short. */
    public interface Listener {
        void started(String target, int round);

        void ended(Block block);

        /** Asked before a round's first block starts: false ends the rounds before it (a sequential run's stop). */
        default boolean more(int round) {
            return true;
        }
    }

    public Rounds {
        targets = List.copyOf(targets);
        order = order.stream().map(List::copyOf).toList();
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("no targets");
        }
        if (wholeLoads(block) && !leadIn.isZero()) {
            throw new IllegalArgumentException("a block of a whole " + block.kind() + " load has no lead-in: " + leadIn);
        }
        for (List<Integer> round : order) {
            if (round.size() != targets.size() || !new HashSet<>(round).equals(new HashSet<>(IntStream.range(0, targets.size()).boxed().toList()))) {
                throw new IllegalArgumentException("a round must run every target once: " + round);
            }
        }
        new LoadSpec(targets.get(0).base(), path, block, threads, requestTimeout, mix); // the same checks as one load
        // A whole shape has no lead-in, and a burst or loops no planned length to hold one.
        if (leadIn.toMillis() % 1000 != 0 || !wholeLoads(block) && leadIn.compareTo(block.plannedDuration()) >= 0) {
            throw new IllegalArgumentException("a lead-in of whole seconds, shorter than the block: " + leadIn);
        }
    }

    public Rounds(List<Target> targets, String path, LoadProfile block, List<List<Integer>> order, int threads, Duration requestTimeout, Duration leadIn) {
        this(targets, path, block, order, threads, requestTimeout, leadIn, null);
    }

    /**
     * Every target once per round, each round in a new random order: a fixed position would hand one
     * target whatever the block before it leaves behind (a collecting GC, a drained cache) every time.
     */
    public static List<List<Integer>> shuffled(int targets, int rounds, long seed) {
        Random random = new Random(seed);
        List<List<Integer>> out = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            List<Integer> round = new ArrayList<>(IntStream.range(0, targets).boxed().toList());
            Collections.shuffle(round, random);
            out.add(List.copyOf(round));
        }
        return out;
    }

    /** Hyperfoil's name of target {@code index}'s block in {@code round}: an iteration of the target's phase. */
    public static String phase(int index, int round) {
        return String.format("%s/%03d", PhasePlan.phaseName(index), round);
    }

    /** The phases in the order they run. */
    public List<String> sequence() {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < order.size(); r++) {
            for (int t : order.get(r)) {
                out.add(phase(t, r));
            }
        }
        return out;
    }

    /** Whether each block is a whole load of a shape ({@link WholeLoads}), not a length of fixed users or a rate. */
    public boolean wholeLoads() {
        return wholeLoads(block);
    }

    private static boolean wholeLoads(LoadProfile block) {
        return !(block instanceof LoadProfile.Fixed || block instanceof LoadProfile.Rate);
    }

    public PhasePlan blockPlan() {
        return PhasePlan.of(block, threads);
    }

    /** Target {@code index}'s load of one block, for a driver that renders the rounds in its own format. */
    public LoadSpec spec(int index) {
        return spec(index, targets.get(index).base());
    }

    /** The same at another address: a fresh JVM of the target ({@link WholeLoads.Lives}). */
    public LoadSpec spec(int index, URI base) {
        return new LoadSpec(base, path, block, threads, requestTimeout, mix);
    }
}
