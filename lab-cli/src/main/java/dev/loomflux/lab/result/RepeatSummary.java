package dev.loomflux.lab.result;

import java.util.List;

/**
 * The "summary" of results.json: per target x scenario x metric the median over repeats with its
 * 95% CI, and per scenario a verdict for every pair of targets (docs/statistics.md). Drawn by
 * {@code verdict.RepeatVerdicts}.
 */
public record RepeatSummary(String method, List<Median> estimates, List<PairVerdict> verdicts) {
    /**
     * One metric's median over the repeats of one target x scenario, or of one part of a flow scenario.
     *
     * @param flow a flow scenario's flow, or null ({@link ScenarioPart}: the scenario's requests together)
     * @param step the flow's step, or null for its whole iterations
     */
    public record Median(String target, String scenario, String flow, String step, String metric, int n, double median, double min, double max,
                         double ciLow, double ciHigh) {
        /** Of the scenario's requests together. */
        public Median(String target, String scenario, String metric, int n, double median, double min, double max, double ciLow, double ciHigh) {
            this(target, scenario, null, null, metric, n, median, min, max, ciLow, ciHigh);
        }

        /** "crud/create", as results.json's comparisons name the part. */
        public String where() {
            return new ScenarioPart(flow, step, null).where(scenario);
        }
    }

    /**
     * Whether {@code a} and {@code b} differ on one metric; {@code winner} only when significant.
     *
     * @param flow    a flow scenario's flow, or null ({@link ScenarioPart})
     * @param step    the flow's step, or null
     * @param request the step's request, {@code POST /items}; null without a step
     */
    public record PairVerdict(String scenario, String flow, String step, String request, String metric, String a, String b, String winner, Double diffPct,
                              Double ciLowPct, Double ciHighPct, boolean significant, String text) {
        public PairVerdict(String scenario, String metric, String a, String b, String winner, Double diffPct, Double ciLowPct, Double ciHighPct,
                           boolean significant, String text) {
            this(scenario, null, null, null, metric, a, b, winner, diffPct, ciLowPct, ciHighPct, significant, text);
        }

        /** The better side when the difference is significant, else null. */
        public String clearWinner() {
            return significant ? winner : null;
        }

        public ScenarioPart part() {
            return new ScenarioPart(flow, step, request);
        }

        /** "crud/create", as results.json's comparisons name the part. */
        public String where() {
            return part().where(scenario);
        }

        /** Whether it judges the scenario as a whole (a single flow is its scenario), not a mix's flow or a step. */
        public boolean wholeScenario() {
            return part().standsForScenario(scenario);
        }
    }
}
