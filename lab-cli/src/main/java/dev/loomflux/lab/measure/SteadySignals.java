package dev.loomflux.lab.measure;

import dev.loomflux.lab.steady.Point;
import dev.loomflux.lab.telemetry.CpuCanary;
import dev.loomflux.lab.telemetry.Reading;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.util.OptionalDouble;

/** The target's JIT work (hsperfdata, through the sampler) and the machine's speed (canary) for each second of warmup. */
public record SteadySignals(ResourceSampler sampler, CpuCanary canary) implements Warmup.Signals {
    @Override
    public Point point(long secondStartMs, double rps, double p50Ms) {
        Reading.Jit jit = ResourceReport.jitBetween(sampler, secondStartMs, secondStartMs + 1000);
        return new Point(rps, p50Ms, jit == null ? null : jit.compileMs(), jit == null || jit.compilerCpuMs() < 0 ? null : jit.compilerCpuMs(),
                canary == null ? null : canary.microsIn(secondStartMs, secondStartMs + 1000));
    }

    @Override
    public Double cpuPct(long fromMs, long toMs) {
        OptionalDouble mean = sampler.readings(ResourceReport.TARGET, fromMs, toMs).stream().mapToDouble(Reading::cpuPct).average();
        return mean.isPresent() ? mean.getAsDouble() : null;
    }
}
