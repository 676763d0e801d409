package dev.loomflux.lab.experiment;

import java.time.Duration;

/**
 * How the targets are measured against each other.
 *
 * <p>Paired: every target's JVM is started and warmed first, then all are measured in interleaved
 * rounds, each round one block per target in a new random order, and targets are judged by their
 * per-round ratios (docs/statistics.md). Sequential: one target after another, each warmed and
 * measured in one window, judged over repeats by medians, as the lab did before rounds.
 *
 * @param rounds measured rounds (paired), after {@link #LEAD_IN} unmeasured ones
 * @param block  one block's length (paired)
 */
public record Design(Kind kind, int rounds, Duration block) {
    public enum Kind { PAIRED, SEQUENTIAL }

    /**
     * 20 rounds of 4 s: 20 ratios give a Wilcoxon interval about 1.1 standard errors wide each way, and
     * three targets take 4.5 minutes of measured load, lead-in included, which leaves the default run
     * room for three JVM starts and warmups within 10 minutes (docs/reproducibility.md has the figures).
     */
    public static final int DEFAULT_ROUNDS = 20;
    public static final Duration DEFAULT_BLOCK = Duration.ofSeconds(4);
    /**
     * The warmup budget per target when the rounds follow: the compile stage (at most half) and the
     * profile's load until steady. What is still moving after it shows as a trend across the rounds,
     * which takes the target out of the verdicts instead of into a wrong one.
     */
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(75);
    /**
     * Unmeasured rounds before the measured ones: the rounds open new connections, which cost the
     * JIT some hot code once (docs/steady-state.md), and the targets' first block after their warmup
     * follows minutes of idling.
     */
    public static final int LEAD_IN = 1;
    /**
     * Every block starts with this much load that is not measured. Its users start together, and a
     * target that idled through the other targets' blocks serves its first second slower: in two paired
     * runs of items without a lead-in, webflux's first second made a median 0.94 of its block's later
     * seconds in both (mvc 1.02 and 0.97, mvc-vt 0.99 and 1.01), 1.5% of every 4 s block.
     */
    public static final Duration BLOCK_LEAD_IN = Duration.ofSeconds(1);
    public static final int MAX_ROUNDS = 1000;

    public static final Design SEQUENTIAL = new Design(Kind.SEQUENTIAL, 0, Duration.ZERO);
    public static final Design PAIRED = new Design(Kind.PAIRED, DEFAULT_ROUNDS, DEFAULT_BLOCK);

    public boolean paired() {
        return kind == Kind.PAIRED;
    }

    public String describe() {
        return paired() ? "paired: " + rounds + " rounds x " + block.toMillis() / 1000.0 + " s per target, after " + LEAD_IN + " lead-in round"
                : "sequential";
    }
}
