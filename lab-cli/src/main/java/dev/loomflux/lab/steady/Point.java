package dev.loomflux.lab.steady;

/**
 * One second of load as the steady-state rule sees it.
 *
 * @param rps       responses in that second
 * @param p50Ms     median latency; NaN when the second had no responses
 * @param jitMs     time the target's finished JIT compilations took in that second; null when its JVM publishes no counters
 * @param jitCpuMs  CPU time of the target's JIT compiler threads in that second, compilations in progress
 *                  included; null where /proc cannot tell (not Linux)
 * @param canaryUs  CPU time the lab's fixed canary work took on the target's CPUs in that second; null when not sampled
 */
public record Point(double rps, double p50Ms, Double jitMs, Double jitCpuMs, Double canaryUs) {
}
