package dev.loomflux.lab.result;

import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The "summary" of results.json: per target x scenario x metric the median over repeats with its
 * 95% CI, and per scenario a verdict for every pair of targets (docs/statistics.md).
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

    public static RepeatSummary of(List<Result> results, List<String> targets, List<String> scenarios) {
        List<Median> estimates = new ArrayList<>();
        List<PairVerdict> verdicts = new ArrayList<>();
        for (String scenario : scenarios) {
            for (Metric metric : Metric.SUMMARIZED) {
                Map<String, double[]> samples = new LinkedHashMap<>();
                Map<String, List<String>> unsteady = new LinkedHashMap<>();
                for (String target : targets) {
                    List<Result> ok = results.stream().filter(r -> target.equals(r.target()) && scenario.equals(r.scenario()) && r.ok()).toList();
                    double[] v = ok.stream().map(metric::read).filter(x -> x != null && Double.isFinite(x)).mapToDouble(Double::doubleValue).toArray();
                    if (v.length > 0) {
                        samples.put(target, v);
                        dev.loomflux.lab.stats.Estimate e = Stats.summarize(v);
                        estimates.add(new Median(target, scenario, metric.summaryName(), e.n(), Result.round(e.median()), Result.round(e.min()),
                                Result.round(e.max()), Result.round(e.ciLow()), Result.round(e.ciHigh())));
                        unsteady.put(target, ok.stream().filter(r -> !r.steady()).map(r -> target + " " + r.jvmLabel()).toList());
                    }
                }
                List<String> present = new ArrayList<>(samples.keySet());
                for (int i = 0; i < present.size(); i++) {
                    for (int j = i + 1; j < present.size(); j++) {
                        String a = present.get(i);
                        String b = present.get(j);
                        Verdict v = Stats.compare(metric.summaryName(), a, samples.get(a), b, samples.get(b), metric.higherIsBetter());
                        List<String> why = new ArrayList<>(unsteady.get(a));
                        why.addAll(unsteady.get(b));
                        if (!why.isEmpty()) {
                            v = new Verdict(v.metric(), null, v.diffPct(), v.ciLowPct(), v.ciHighPct(), false,
                                    "not steady: " + String.join(", ", why) + " did not reach steady state or drifted; no verdict");
                        }
                        verdicts.add(new PairVerdict(scenario, v.metric(), a, b, v.winner(), Result.finite(v.diffPct()), Result.finite(v.ciLowPct()),
                                Result.finite(v.ciHighPct()), v.significant(), v.text()));
                    }
                }
            }
        }
        return new RepeatSummary("median of repeats, 95% percentile-bootstrap CI; verdict when the CI of the difference excludes 0 "
                + "and Mann-Whitney U p < " + Stats.ALPHA + " with >= " + Stats.MIN_REPEATS + " repeats each, all of them steady (docs/statistics.md)",
                estimates, verdicts);
    }
}
