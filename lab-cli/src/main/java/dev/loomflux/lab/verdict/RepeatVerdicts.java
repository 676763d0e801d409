package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ScenarioPart;
import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Draws results.json's "summary" from the repeats of a sequential run: per target x scenario x metric
 * the median with its 95% CI, and per scenario a verdict for every pair of targets, withheld where a
 * result is not steady (docs/statistics.md).
 */
public final class RepeatVerdicts {
    private RepeatVerdicts() {
    }

    /**
     * Over the results that are ok, per scenario, the metrics of {@link Metric#SUMMARIZED}, the targets in the order given. A
     * flow scenario's are per part ({@link ScenarioPart}): a single flow's iterations, then each step's requests; a mix's
     * requests together, then each flow and its steps.
     */
    public static RepeatSummary of(List<Result> results, List<String> targets, List<String> scenarios) {
        List<RepeatSummary.Median> estimates = new ArrayList<>();
        List<RepeatSummary.PairVerdict> verdicts = new ArrayList<>();
        for (String scenario : scenarios) {
            List<Result> ofScenario = results.stream().filter(r -> scenario.equals(r.scenario()) && r.ok()).toList();
            for (ScenarioPart part : ScenarioPart.ofResults(ofScenario)) {
                List<Result> measured = ofScenario.stream().map(r -> r.part(part)).filter(Objects::nonNull).toList();
                for (Metric metric : Metric.SUMMARIZED) {
                    judge(scenario, part, metric, measured, targets, estimates, verdicts);
                }
            }
        }
        return new RepeatSummary("median of repeats, 95% percentile-bootstrap CI; verdict when the CI of the difference excludes 0 "
                + "and Mann-Whitney U p < " + Stats.ALPHA + " with >= " + Stats.MIN_REPEATS + " repeats each, all of them steady (docs/statistics.md)",
                estimates, verdicts);
    }

    /** One metric of one part of a scenario: each target's median over its repeats, and a verdict per pair. */
    private static void judge(String scenario, ScenarioPart part, Metric metric, List<Result> ok, List<String> targets, List<RepeatSummary.Median> estimates,
                              List<RepeatSummary.PairVerdict> verdicts) {
        Map<String, double[]> samples = new LinkedHashMap<>();
        Map<String, List<String>> unsteady = new LinkedHashMap<>();
        for (String target : targets) {
            List<Result> own = ok.stream().filter(r -> target.equals(r.target())).toList();
            double[] v = own.stream().map(metric::read).filter(x -> x != null && Double.isFinite(x)).mapToDouble(Double::doubleValue).toArray();
            if (v.length > 0) {
                samples.put(target, v);
                Estimate e = Stats.summarize(v);
                estimates.add(new RepeatSummary.Median(target, scenario, part.flow(), part.step(), metric.summaryName(), e.n(), Result.round(e.median()),
                        Result.round(e.min()), Result.round(e.max()), Result.round(e.ciLow()), Result.round(e.ciHigh())));
                unsteady.put(target, own.stream().filter(r -> !r.steady()).map(r -> target + " " + r.jvmLabel()).toList());
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
                verdicts.add(new RepeatSummary.PairVerdict(scenario, part.flow(), part.step(), part.request(), v.metric(), a, b, v.winner(),
                        Result.finite(v.diffPct()), Result.finite(v.ciLowPct()), Result.finite(v.ciHighPct()), v.significant(), v.text()));
            }
        }
    }
}
