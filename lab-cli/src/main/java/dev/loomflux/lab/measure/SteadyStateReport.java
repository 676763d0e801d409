package dev.loomflux.lab.measure;

import dev.loomflux.lab.result.ScenarioResult;
import dev.loomflux.lab.steady.Drift;
import dev.loomflux.lab.steady.Point;
import dev.loomflux.lab.steady.SteadyRule;
import dev.loomflux.lab.telemetry.Phase;
import dev.loomflux.lab.telemetry.Reading;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A result's steady_state section (docs/steady-state.md). */
final class SteadyStateReport {
    private SteadyStateReport() {
    }

    /**
     * How the warmup ended, the JIT's work before and during the measurement, and whether the
     * measured window drifted: a result is {@code steady} only when the rule held and it did not.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> of(ResourceSampler sampler, Warmup.Outcome w, Duration budget, Phase warmup, Phase measured, Map<String, Object> r,
                                   boolean continuous) {
        List<Map<String, Object>> rows = (List<Map<String, Object>>) r.get("series");
        // Only a load that went on from warmup into the measurement can be held to the warmup's level.
        Drift drift = Drift.of(rows.stream().map(SteadyStateReport::pointOf).toList(), continuous ? w.series() : List.of());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reached", w.steady());
        m.put("seconds", w.steady() ? w.secondsToSteady() : null);
        m.put("warmup_s", ScenarioResult.round(w.millis() / 1000.0));
        m.put("budget_s", ScenarioResult.round(budget.toMillis() / 1000.0));
        m.put("compile_stage_s", w.compileSeconds());
        m.put("compile_stage_users", w.compileSeconds() > 0 ? w.compileUsers() : null);
        m.put("rule", w.check() == null ? null : rule(w.check()));
        Map<String, Object> jit = new LinkedHashMap<>();
        jit.put("warmup", jit(ResourceReport.jitBetween(sampler, warmup.fromMs(), warmup.toMs())));
        jit.put("measured", jit(ResourceReport.jitBetween(sampler, measured.fromMs(), measured.toMs())));
        m.put("jit", jit);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("drifting", drift.drifting());
        d.put("rps_change_pct", ScenarioResult.finite(drift.rpsChangePct()));
        d.put("p50_change_pct", ScenarioResult.finite(drift.p50ChangePct()));
        d.put("machine_change_pct", drift.machineChangePct() == null ? null : ScenarioResult.finite(drift.machineChangePct()));
        d.put("from_warmup_pct", ScenarioResult.finite(drift.fromWarmupPct()));
        d.put("note", drift.note());
        m.put("drift", d);
        m.put("steady", w.steady() && !drift.drifting());
        List<Map<String, Object>> series = new ArrayList<>();
        for (int t = 0; t < w.series().size(); t++) {
            Point p = w.series().get(t);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("t", t);
            row.put("rps", ScenarioResult.round(p.rps()));
            row.put("p50", ScenarioResult.finite(p.p50Ms()));
            row.put("jit_ms", p.jitMs() == null ? null : ScenarioResult.round(p.jitMs()));
            row.put("jit_cpu_ms", p.jitCpuMs() == null ? null : ScenarioResult.round(p.jitCpuMs()));
            row.put("canary_us", p.canaryUs() == null ? null : ScenarioResult.round(p.canaryUs()));
            series.add(row);
        }
        m.put("series", series);
        return m;
    }

    private static Point pointOf(Map<String, Object> row) {
        return new Point(number(row.get("rps")), number(row.get("p50")),
                nullable(row.get("jit_ms")), nullable(row.get("jit_cpu_ms")), nullable(row.get("canary_us")));
    }

    private static Map<String, Object> rule(SteadyRule.Check c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("window_s", c.window());
        m.put("rps_change_pct", ScenarioResult.finite(c.rpsChangePct()));
        m.put("rps_trend_p", ScenarioResult.finite(c.rpsTrendP()));
        m.put("rps_cv_pct", ScenarioResult.finite(c.rpsCvPct()));
        m.put("p50_change_pct", ScenarioResult.finite(c.p50ChangePct()));
        m.put("jit_pct", c.jitPct() == null ? null : ScenarioResult.finite(c.jitPct()));
        m.put("jit_cpu_pct", c.jitCpuPct() == null ? null : ScenarioResult.finite(c.jitCpuPct()));
        m.put("machine_change_pct", c.machineChangePct() == null ? null : ScenarioResult.finite(c.machineChangePct()));
        m.put("reasons", c.reasons());
        return m;
    }

    private static Map<String, Object> jit(Reading.Jit j) {
        if (j == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("compiles", j.compiles());
        m.put("compile_ms", ScenarioResult.round(j.compileMs()));
        m.put("compiler_cpu_ms", j.compilerCpuMs() < 0 ? null : ScenarioResult.round(j.compilerCpuMs()));
        return m;
    }

    private static Double nullable(Object o) {
        return o == null ? null : number(o);
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

}
