package dev.loomflux.lab.result;

import java.util.List;

/**
 * A result's "steady_state" (docs/steady-state.md): how the warmup ended, the JIT's work before and
 * while measured, whether the measured window drifted, and the warmup's own per-second series. A
 * result is {@code steady} only when the rule held and it did not drift.
 */
public record SteadyState(boolean reached, Integer seconds, Double warmupS, Double budgetS, Integer compileStageS, Integer compileStageUsers,
                          Rule rule, JitPhases jit, DriftCheck drift, boolean steady, List<WarmupSecond> series) {
    /** Seconds of the compile stage; 0 when there was none (results from before it existed have no figure). */
    public int compileStage() {
        return compileStageS == null ? 0 : compileStageS;
    }

    /** The last check of the steady-state rule: its window and the figures it judged. */
    public record Rule(int windowS, Double rpsChangePct, Double rpsTrendP, Double rpsCvPct, Double p50ChangePct, Double jitPct, Double jitCpuPct,
                       Double machineChangePct, List<String> reasons) {
    }

    public record JitPhases(JitWork warmup, JitWork measured) {
    }

    /** The JIT's work over a span; compiler_cpu_ms absent where the JVM does not publish it. */
    public record JitWork(long compiles, double compileMs, Double compilerCpuMs) {
    }

    public record DriftCheck(boolean drifting, Double rpsChangePct, Double p50ChangePct, Double machineChangePct, Double fromWarmupPct, String note) {
    }

    public record WarmupSecond(int t, double rps, Double p50, Double jitMs, Double jitCpuMs, Double canaryUs) {
    }
}
