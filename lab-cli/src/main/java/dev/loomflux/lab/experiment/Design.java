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
 * <p>Paired is the default of every door ({@code ./lab run} with or without a file, {@code ./lab sweep}); sequential is
 * chosen by name. A design not chosen by name gives way to the sequential one where the paired design cannot measure
 * the experiment ({@link Experiment#decided}; docs/guide.md, "The two designs").
 *
 * @param rounds       measured rounds (paired), after the lead-in rounds
 * @param block        one block's length (paired)
 * @param leadIn       unmeasured load at the start of every block (paired), whole seconds
 * @param leadInRounds the most unmeasured rounds before the measured ones (paired); they end once the JITs are quiet
 * @param named        whether the user chose it by name ({@code --design}, {@code design:}) rather than took the default
 * @param fallback     when the default gave way to the sequential design, what interleaved rounds would have needed
 *                     (for the run log); null otherwise
 * @param fixedRounds  paired: take every one of {@code rounds}; otherwise they are a cap, and the rounds stop at a look once
 *                     the comparisons have their answer (docs/statistics.md, "Stopping when the answer is known")
 * @param budget       paired: the whole run's wall-clock budget ({@code --time}), which the rounds stop within; null for none
 */
public record Design(Scheme kind, int rounds, Duration block, Duration leadIn, int leadInRounds, boolean named, String fallback, boolean fixedRounds,
                     Duration budget) {
    public enum Scheme { PAIRED, SEQUENTIAL }

    /**
     * The most rounds a scenario takes by default: they stop at a look once answered (docs/statistics.md, "Stopping when
     * the answer is known"). The fewest that decide what 45 fixed rounds decided: five default json runs of 45 fixed rounds
     * after lead-in rounds, replayed through the looks (bench/replay-stopping.sh), reached all 44 of their fixed outcomes
     * with a cap of 15 (and of 20, 25 and 45), stopping at 13.0 rounds on average (docs/statistics.md); a default run then takes 4:51-5:27 here (docs/reproducibility.md, "Sequential stopping:
     * the default in under 5 minutes"). Rounds of 1 s blocks, no lead-in:
     * the machine's speed here moves from second to second (per-second throughput correlated 0.55 with the next second's),
     * so the closer two targets' blocks lie the more of it their ratio cancels (docs/reproducibility.md).
     */
    public static final int DEFAULT_ROUNDS = 15;
    /**
     * Sets of JVMs in a default run (`--sets`): one JVM of a target can run 5-11% faster than another of the
     * same jar for a whole run (an A/A run with one set: mvc2 ahead of mvc by 11.0%, 95% CI 7.9-14.5%, over
     * 90 rounds), which no interval over rounds sees. Two sets in the same rounds, and a winner only where
     * both show it, keep that out of the verdicts; 45 rounds of two sets are as many blocks as 90 of one.
     */
    public static final int DEFAULT_SETS = 2;
    public static final Duration DEFAULT_BLOCK = Duration.ofSeconds(1);
    /**
     * The warmup budget per target: in rounds, its compile stage takes at most half of it, and the lead-in
     * rounds follow; measured alone, the compile stage and then the profile's load until steady. What is still
     * moving after it shows as a trend across the rounds, which takes the target out of the verdicts instead
     * of into a wrong one.
     */
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(75);
    /**
     * The most unmeasured rounds before the measured ones: they end sooner, once every JVM's JIT has been quiet for a few
     * rounds in a row (paired/LeadInRule), so this is a cap, not a length. A fixed 4 left the rounds with a JIT still
     * compiling through them on slower hosts (crud, a real app) and waited for nothing on quiet ones; by hand, 20 decided
     * crud where 4 could not (docs/steady-state.md, "Lead-in rounds that end on evidence").
     */
    public static final int LEAD_IN = 20;
    public static final int MAX_LEAD_IN_ROUNDS = 100;
    /**
     * Unmeasured load at the start of every block: none by default. After 8 s of idling through the other
     * targets' 4 s blocks, webflux's first second served a median 0.94 of its block's later ones (two items
     * runs); after 4 s of idling (2 s blocks, json) the first second made 0.97-0.99 of the rest for every
     * target (mvc 0.99, mvc-vt 0.97 and 1.01, webflux 0.98 and 0.99 in two runs). A 1 s lead-in before
     * every 1 s block would halve the rounds the time allows, for a bias within 2% that every run shares.
     */
    public static final Duration DEFAULT_LEAD_IN = Duration.ZERO;
    public static final Duration MAX_LEAD_IN = Duration.ofSeconds(60);
    /**
     * A block with think time lasts at least this many of the longest pause. Every block starts its users
     * at once, so their first requests come together until the pauses spread them, and a user pausing at
     * the block's end sends nothing more in it: with ten pauses to a block, each user's cycles in it are
     * counted to within one in ten, inside Little's law's 10% margin ({@code Comparisons.MIN_BUSY}).
     */
    public static final int PAUSES_PER_BLOCK = 10;
    public static final int MAX_ROUNDS = 1000;

    public static final Design SEQUENTIAL = new Design(Scheme.SEQUENTIAL, 0, Duration.ZERO, Duration.ZERO, 0);

    /** Without a choice of fixed rounds or a budget: rounds that stop once decided, no budget. */
    public Design(Scheme kind, int rounds, Duration block, Duration leadIn, int leadInRounds, boolean named, String fallback) {
        this(kind, rounds, block, leadIn, leadInRounds, named, fallback, false, null);
    }
    public static final Design PAIRED = new Design(Scheme.PAIRED, DEFAULT_ROUNDS, DEFAULT_BLOCK, DEFAULT_LEAD_IN, LEAD_IN);
    /** What a run that names no design starts from: {@link #PAIRED}, not named. */
    public static final Design DEFAULT = PAIRED.byDefault();

    /** A design chosen by name. */
    public Design(Scheme kind, int rounds, Duration block, Duration leadIn, int leadInRounds) {
        this(kind, rounds, block, leadIn, leadInRounds, true, null);
    }

    public Design {
        if (fallback != null && (named || kind != Scheme.SEQUENTIAL)) {
            throw new IllegalArgumentException("only the default gives way, and to the sequential design");
        }
        String wrong = leadInProblem(leadIn);
        if (wrong != null) {
            throw new IllegalArgumentException("lead-in " + leadIn + ": " + wrong);
        }
        if (leadInRounds < 0 || leadInRounds > MAX_LEAD_IN_ROUNDS) {
            throw new IllegalArgumentException("lead-in rounds " + leadInRounds + ": expected 0.." + MAX_LEAD_IN_ROUNDS);
        }
    }

    /** What is wrong with a block's lead-in, for the flag's or the file's error; null when it is fine. */
    public static String leadInProblem(Duration leadIn) {
        return leadIn.isNegative() || leadIn.toMillis() % 1000 != 0 || leadIn.compareTo(MAX_LEAD_IN) > 0
                ? "expected whole seconds from 0s to " + MAX_LEAD_IN.toSeconds() + "s" : null;
    }

    /**
     * A paired design of {@code rounds} blocks of {@code block}, each after {@code leadIn} of unmeasured load,
     * after {@code leadInRounds} unmeasured rounds.
     */
    public static Design paired(int rounds, Duration block, Duration leadIn, int leadInRounds) {
        return new Design(Scheme.PAIRED, rounds, block, leadIn, leadInRounds);
    }

    /** The same design, taken by default rather than named. */
    public Design byDefault() {
        return new Design(kind, rounds, block, leadIn, leadInRounds, false, null, fixedRounds, budget);
    }

    /** The same design with fixed rounds or rounds that stop once decided, and a time budget (null: none). */
    public Design stopping(boolean fixed, Duration time) {
        return new Design(kind, rounds, block, leadIn, leadInRounds, named, fallback, fixed, time);
    }

    /**
     * The sequential design in place of the default, which could not measure the experiment.
     *
     * @param need what interleaved rounds would have needed, e.g. "a steady load (a fixed or rate profile, no sweep)"
     */
    public static Design fallback(String need) {
        return new Design(Scheme.SEQUENTIAL, 0, Duration.ZERO, Duration.ZERO, 0, false, need);
    }

    public boolean paired() {
        return kind == Scheme.PAIRED;
    }

    public String describe() {
        return paired() ? "paired: " + (fixedRounds ? "" : "up to ") + rounds + " rounds x " + block.toMillis() / 1000.0 + " s per target (each after " + leadIn.toSeconds()
                + " s of unmeasured load), after up to " + leadInRounds + " lead-in rounds"
                + (budget == null ? "" : ", within " + budget.toSeconds() + " s") : "sequential";
    }
}
