package dev.loomflux.lab.result;

import java.util.List;

/**
 * The "summary" of results.json: per target x scenario x metric the median over repeats with its
 * 95% CI, and per scenario a verdict for every pair of targets (docs/statistics.md). Drawn by
 * {@code verdict.RepeatVerdicts}.
 */
public record RepeatSummary(String method, List<Median> estimates, List<PairVerdict> verdicts) {
    /** One metric's median over the repeats of one target x scenario. */
    public record Median(String target, String scenario, String metric, int n, double median, double min, double max, double ciLow, double ciHigh) {
    }

    /** Whether {@code a} and {@code b} differ on one metric; {@code winner} only when significant. */
    public record PairVerdict(String scenario, String metric, String a, String b, String winner, Double diffPct, Double ciLowPct, Double ciHighPct,
                              boolean significant, String text) {
        /** The better side when the difference is significant, else null. */
        public String clearWinner() {
            return significant ? winner : null;
        }
    }
}
