package dev.loomflux.lab.measure;

import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.steady.Drift;
import dev.loomflux.lab.steady.Point;
import dev.loomflux.lab.steady.SteadyRule;
import dev.loomflux.lab.telemetry.Phase;
import dev.loomflux.lab.telemetry.Reading;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A result's steady_state section (docs/steady-state.md). */
public final class SteadyStateReport {
    private SteadyStateReport() {
    }

    /**
     * How the warmup ended, the JIT's work before and during the measurement, and whether the
     * measured window drifted: a result is {@code steady} only when the rule held and it did not.
     */
    static SteadyState of(ResourceSampler sampler, Warmup.Outcome w, Duration budget, Phase warmup, Phase measured, Drift drift) {
        List<SteadyState.WarmupSecond> series = series(w);
        return new SteadyState(w.steady(), w.steady() ? w.secondsToSteady() : null, Result.round(w.millis() / 1000.0),
                Result.round(budget.toMillis() / 1000.0), w.compileSeconds(), w.compileSeconds() > 0 ? w.compileUsers() : null,
                w.check() == null ? null : rule(w.check()),
                new SteadyState.JitPhases(jit(ResourceReport.jitBetween(sampler, warmup.fromMs(), warmup.toMs())),
                        jit(ResourceReport.jitBetween(sampler, measured.fromMs(), measured.toMs()))),
                new SteadyState.DriftCheck(drift.drifting(), Result.finite(drift.rpsChangePct()), Result.finite(drift.p50ChangePct()),
                        rounded(drift.machineChangePct()), Result.finite(drift.fromWarmupPct()), drift.note()),
                w.steady() && !drift.drifting(), series);
    }

    /** The warmup's every second as the rule saw it. */
    public static List<SteadyState.WarmupSecond> series(Warmup.Outcome w) {
        List<SteadyState.WarmupSecond> series = new ArrayList<>();
        for (int t = 0; t < w.series().size(); t++) {
            Point p = w.series().get(t);
            series.add(new SteadyState.WarmupSecond(t, Result.round(p.rps()), Result.finite(p.p50Ms()), rounded(p.jitMs()), rounded(p.jitCpuMs()),
                    rounded(p.canaryUs())));
        }
        return series;
    }

    /** The rule's last check, as results.json holds it; null without one. */
    public static SteadyState.Rule rule(Warmup.Outcome w) {
        return w.check() == null ? null : rule(w.check());
    }

    /**
     * Whether the measured window's rows drifted; only a load that went on from warmup into the measurement ({@code continuous})
     * can be held to the warmup's level.
     */
    static Drift drift(List<Result.PerSecond> rows, Warmup.Outcome w, boolean continuous) {
        return Drift.of(rows.stream().map(SteadyStateReport::pointOf).toList(), continuous ? w.series() : List.of());
    }

    private static Point pointOf(Result.PerSecond row) {
        return new Point(row.load().rps(), row.load().p50() == null ? Double.NaN : row.load().p50(), row.jit().jitMs(), row.jit().jitCpuMs(),
                row.beside().canaryUs());
    }

    private static SteadyState.Rule rule(SteadyRule.Check c) {
        return new SteadyState.Rule(c.window(), Result.finite(c.rpsChangePct()), Result.finite(c.rpsTrendP()), Result.finite(c.rpsCvPct()),
                Result.finite(c.p50ChangePct()), rounded(c.jitPct()), rounded(c.jitCpuPct()), rounded(c.machineChangePct()), c.reasons());
    }

    private static SteadyState.JitWork jit(Reading.Jit j) {
        return j == null ? null : new SteadyState.JitWork(j.compiles(), Result.round(j.compileMs()), j.compilerCpuMs() < 0 ? null : Result.round(j.compilerCpuMs()));
    }

    /** Rounded; null for a figure that is unknown or not finite. */
    private static Double rounded(Double v) {
        return v == null ? null : Result.finite(v);
    }
}
