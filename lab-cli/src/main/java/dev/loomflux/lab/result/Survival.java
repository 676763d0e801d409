package dev.loomflux.lab.result;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * results.json "survival": one scenario's (cell's) deaths in whole shapes, a categorical verdict (docs/statistics.md,
 * "Survival"). Written only where some target died in a measured block.
 *
 * @param targets each target's rounds and deaths
 * @param pairs   every two targets' survival compared
 */
public record Survival(String scenario, Map<String, Integer> cell, List<Target> targets, List<Pair> pairs) {
    public static final String WINNER = "winner";
    public static final String UNDECIDED = "undecided";
    public static final String NEITHER_DIED = "neither died";

    public Survival {
        cell = cell == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(cell));
        targets = List.copyOf(targets);
        pairs = List.copyOf(pairs);
    }

    /**
     * One target: it died in {@code died} of its {@code rounds} measured blocks (over its sets); the share that die lies in
     * {@code lowPct}..{@code highPct} with 95% confidence (Clopper-Pearson, exact). How it died: each cause and how often, and
     * the medians over its deaths of how far into the block, its memory, threads and open files at its last reading alive.
     */
    public record Target(String target, int rounds, int died, double lowPct, double highPct, Map<String, Integer> causes, Double diedAfterS,
                         Double rssMb, Integer threads, Long openFiles) {
        public Target {
            causes = causes == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(causes));
        }

        /** "mvc-vt died in 4 of 4 rounds (95% CI 40-100%)" */
        public String deaths() {
            return String.format(Locale.ROOT, "%s died in %d of %d rounds (95%% CI %.0f-%.0f%%)", target, died, rounds, lowPct, highPct);
        }

        /** "mvc-vt died in 4 of 4 rounds (95% CI 40-100%): out of heap (heap 512m) ..., 13 s into the shape, at ..." */
        public String describe() {
            if (died == 0) {
                return String.format(Locale.ROOT, "%s survived %d of %d rounds (dies in at most %.0f%%, 95%% CI)", target, rounds, rounds, highPct);
            }
            return deaths()
                    + (causes == null || causes.isEmpty() ? "" : ": " + String.join("; ", causes.entrySet().stream()
                    .map(e -> e.getKey() + (causes.size() > 1 ? " (" + e.getValue() + ")" : "")).toList()))
                    + (diedAfterS == null ? "" : String.format(Locale.ROOT, ", %.0f s into the shape", diedAfterS))
                    + (rssMb == null ? "" : String.format(Locale.ROOT, ", at %.0f MB resident, %d threads%s", rssMb, threads,
                    openFiles == null ? "" : ", " + openFiles + " open files"));
        }
    }

    /**
     * Two targets' deaths compared by Fisher's exact test, two-sided.
     *
     * @param outcome {@link #WINNER} (the one that died less, at p < 0.05), {@link #UNDECIDED}, or {@link #NEITHER_DIED}
     * @param winner  the target that survived more, with a winner; else null
     * @param p       the test's p-value; 1 when neither died
     */
    public record Pair(String a, String b, String outcome, String winner, double p) {
        public String describe() {
            return switch (outcome) {
                case WINNER -> String.format(Locale.ROOT, "%s survives more than %s (p = %.3f)", winner, winner.equals(a) ? b : a, p);
                case NEITHER_DIED -> a + " and " + b + ": neither died";
                default -> String.format(Locale.ROOT, "%s vs %s on survival: undecided (p = %.3f)", a, b, p);
            };
        }
    }

    /** "json" or "json users=64". */
    public String where() {
        return BlockRecord.where(scenario, cell);
    }
}
