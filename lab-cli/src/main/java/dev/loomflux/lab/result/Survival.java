package dev.loomflux.lab.result;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * results.json "survival": how the targets lived through one scenario's (cell's) whole shapes: their deaths, a categorical
 * verdict (docs/statistics.md, "Survival"), their peaks of memory and threads, and their recovery after the shape's peak.
 * Written for every scenario measured as whole shapes.
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

    /** Whether some target died in a measured block: only then is survival a verdict to state. */
    public boolean someDied() {
        return targets.stream().anyMatch(t -> t.died() > 0);
    }

    /**
     * One target: it died in {@code died} of its {@code rounds} measured blocks (over its sets); the share that die lies in
     * {@code lowPct}..{@code highPct} with 95% confidence (Clopper-Pearson, exact). How it died: each cause and how often, and
     * the medians over its deaths of how far into the block, its memory, threads and open files at its last reading alive.
     * Over all its blocks, the medians of its peak memory and threads; over those it survived, its recovery.
     */
    public record Target(String target, int rounds, int died, double lowPct, double highPct, Map<String, Integer> causes, Double diedAfterS,
                         Double rssMb, Integer threads, Long openFiles, Double peakRssMb, Integer peakThreads, Recovery recovery) {
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

        /** "mvc recovered after the peak in 6 of 6 blocks, a median 1.0 s after it"; null where no block was judged. */
        public String recovers() {
            if (recovery == null) {
                return null;
            }
            return String.format(Locale.ROOT, "%s recovered after the peak in %d of %d blocks%s", target, recovery.recovered(), recovery.judged(),
                    recovery.medianS() == null ? "" : String.format(Locale.ROOT, ", a median %.1f s after it", recovery.medianS()));
        }
    }

    /**
     * A target's recovery after the shape's peak over the blocks it survived where judged (docs/statistics.md, "Recovery after
     * the peak"): in {@code recovered} of {@code judged} its p99 came back within twice its light-load p99 before the block
     * ended, after a median of {@code medianS} seconds (null when in none).
     */
    public record Recovery(int judged, int recovered, Double medianS) {
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
