package dev.loomflux.lab.paired;

import dev.loomflux.lab.result.LeadIn;
import dev.loomflux.lab.verdict.Comparisons;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * When the lead-in rounds end: once {@link #QUIET_ROUNDS} rounds in a row were quiet (the target JVMs' compiler threads took
 * at most {@link Comparisons#COMPILER_LIMIT_PCT} of a CPU over the round's blocks, the steady rule's limit), or at the cap. A
 * fixed count ended some runs with a JIT still compiling through the rounds and kept others waiting after it had finished.
 * A round is judged by its blocks together, not by its loudest: one compile of 25-35 ms in one block of six kept a default
 * run's lead-in going for 18 rounds, though its JITs compiled for 0.1% of the measured rounds' time; such a block costs the
 * verdicts its own pair of blocks ({@link dev.loomflux.lab.verdict.QuietBlocks}), not every JVM's wait (docs/steady-state.md,
 * "Lead-in rounds that end on evidence").
 */
final class LeadInRule {
    /** Quiet rounds in a row that end the lead-in, chosen by measurement (docs/steady-state.md, "Lead-in rounds that end on evidence"). */
    static final int QUIET_ROUNDS = 3;

    private final int cap;
    private final int quietRounds;
    /** Per round, per JVM: every target JVM's compiler CPU over its block's window, and its own JVM's, % of one CPU (null unknown). */
    private final Map<Integer, Map<String, Double[]>> blocks = new TreeMap<>();
    private final List<Double> worst = new ArrayList<>();
    private int inARow;
    private volatile int measuredFrom = -1;
    private String why;

    /** @param cap the most lead-in rounds ({@code --lead-in-rounds}); 0 for none */
    LeadInRule(int cap, int quietRounds) {
        this.cap = cap;
        this.quietRounds = quietRounds;
        if (cap == 0) {
            measuredFrom = 0;
            why = "no lead-in rounds asked for";
        }
    }

    /**
     * A lead-in block ended.
     *
     * @param allPct every target JVM's compiler threads over the block's window, % of one CPU; null where unknown
     * @param ownPct its own JVM's part of it
     */
    synchronized void block(int round, String label, Double allPct, Double ownPct) {
        if (leading()) {
            blocks.computeIfAbsent(round, r -> new TreeMap<>()).put(label, new Double[] {allPct, ownPct});
        }
    }

    /** Round {@code round}'s last block ended: the lead-in ends here when this round made the quiet ones enough, or at the cap. */
    synchronized void roundEnded(int round) {
        if (!leading()) {
            return;
        }
        Map<String, Double[]> round_ = blocks.getOrDefault(round, Map.of());
        // A block without readings (its JVM unreadable, or read too late) says nothing; the others still judge the round.
        boolean known = round_.values().stream().anyMatch(v -> v[0] != null);
        double mean = round_.values().stream().filter(v -> v[0] != null).mapToDouble(v -> v[0]).average().orElse(0);
        worst.add(known ? Math.round(mean * 10) / 10.0 : null);
        boolean quiet = mean <= Comparisons.COMPILER_LIMIT_PCT;
        inARow = quiet ? inARow + 1 : 0;
        int taken = round + 1;
        if (inARow >= quietRounds) {
            measuredFrom = taken;
            why = known ? String.format(Locale.ROOT, "every JVM's JIT quiet for %d rounds in a row (compiler threads at most %.1f%% of a CPU over a round; limit %.0f%%)",
                    quietRounds, quietMost(), Comparisons.COMPILER_LIMIT_PCT)
                    : "no compiler threads to read: ended after " + quietRounds + " rounds";
        } else if (taken >= cap) {
            measuredFrom = taken;
            why = quiet ? String.format(Locale.ROOT, "at its cap of %d rounds, %d quiet in a row of the %d asked for", cap, inARow, quietRounds)
                    : String.format(Locale.ROOT, "at its cap of %d rounds, %s's compiler threads the busiest (%.1f%% of a CPU over its block) in the last: "
                    + "blocks where they pass %.0f%% are left out of the verdicts; a longer --warmup or more --lead-in-rounds lets the JIT finish first",
                    cap, loudest(round_), loudestPct(round_), Comparisons.COMPILER_LIMIT_PCT);
        }
    }

    private double quietMost() {
        return worst.subList(worst.size() - quietRounds, worst.size()).stream().filter(v -> v != null).mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private static String loudest(Map<String, Double[]> round) {
        return round.entrySet().stream().filter(e -> e.getValue()[1] != null).max((a, b) -> Double.compare(a.getValue()[1], b.getValue()[1]))
                .map(Map.Entry::getKey).orElse("a JVM");
    }

    private static double loudestPct(Map<String, Double[]> round) {
        return round.values().stream().filter(v -> v[0] != null).mapToDouble(v -> v[0]).max().orElse(0);
    }

    /** Whether the lead-in goes on. */
    boolean leading() {
        return measuredFrom < 0;
    }

    /** The first measured round (from 0); -1 while the lead-in goes on. */
    int measuredFrom() {
        return measuredFrom;
    }

    synchronized String why() {
        return why;
    }

    /** How the lead-in went, for results.json; its rounds so far when it never ended (the run was stopped or cut). */
    synchronized LeadIn record(String scenario, Map<String, Integer> cell) {
        return new LeadIn(scenario, cell, leading() ? worst.size() : measuredFrom, cap, leading() ? "the rounds ended first" : why,
                Collections.unmodifiableList(new ArrayList<>(worst)));
    }
}
