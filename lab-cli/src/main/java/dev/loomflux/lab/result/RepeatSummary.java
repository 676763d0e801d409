package dev.loomflux.lab.result;

import dev.loomflux.lab.stats.Estimate;
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
public final class RepeatSummary {
    private RepeatSummary() {
    }

    public static Map<String, Object> of(List<Map<String, Object>> results, List<String> targets, List<String> scenarios) {
        List<Map<String, Object>> estimates = new ArrayList<>();
        List<Map<String, Object>> verdicts = new ArrayList<>();
        for (String scenario : scenarios) {
            for (Metric metric : Metric.SUMMARIZED) {
                Map<String, double[]> samples = new LinkedHashMap<>();
                Map<String, List<String>> unsteady = new LinkedHashMap<>();
                for (String target : targets) {
                    List<Map<String, Object>> ok = results.stream()
                            .filter(r -> target.equals(r.get("target")) && scenario.equals(r.get("scenario")) && "ok".equals(r.get("status")))
                            .toList();
                    double[] v = ok.stream().map(metric::read).filter(x -> x != null && Double.isFinite(x)).mapToDouble(Double::doubleValue).toArray();
                    if (v.length > 0) {
                        samples.put(target, v);
                        estimates.add(estimate(target, scenario, metric.summaryName(), Stats.summarize(v)));
                        unsteady.put(target, ok.stream().filter(r -> !steady(r)).map(r -> target + " repeat " + r.get("repeat")).toList());
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
                        verdicts.add(verdict(scenario, a, b, v));
                    }
                }
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("method", "median of repeats, 95% percentile-bootstrap CI; verdict when the CI of the difference excludes 0 "
                + "and Mann-Whitney U p < " + Stats.ALPHA + " with >= " + Stats.MIN_REPEATS + " repeats each, all of them steady (docs/statistics.md)");
        m.put("estimates", estimates);
        m.put("verdicts", verdicts);
        return m;
    }

    private static Map<String, Object> estimate(String target, String scenario, String metric, Estimate e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", target);
        m.put("scenario", scenario);
        m.put("metric", metric);
        m.put("n", e.n());
        m.put("median", ScenarioResult.round(e.median()));
        m.put("min", ScenarioResult.round(e.min()));
        m.put("max", ScenarioResult.round(e.max()));
        m.put("ci_low", ScenarioResult.round(e.ciLow()));
        m.put("ci_high", ScenarioResult.round(e.ciHigh()));
        return m;
    }

    private static Map<String, Object> verdict(String scenario, String a, String b, Verdict v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", scenario);
        m.put("metric", v.metric());
        m.put("a", a);
        m.put("b", b);
        m.put("winner", v.winner());
        m.put("diff_pct", ScenarioResult.finite(v.diffPct()));
        m.put("ci_low_pct", ScenarioResult.finite(v.ciLowPct()));
        m.put("ci_high_pct", ScenarioResult.finite(v.ciHighPct()));
        m.put("significant", v.significant());
        m.put("text", v.text());
        return m;
    }

    /** Results from before steady state was checked have no steady_state and count as before. */
    public static boolean steady(Map<String, Object> r) {
        return !(r.get("steady_state") instanceof Map<?, ?> s) || !Boolean.FALSE.equals(s.get("steady"));
    }

}
