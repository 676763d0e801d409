package dev.loomflux.lab.result;

/**
 * One role of a result's {@code threads} (docs/results-schema.md): its JVM's OS threads of that role over the measured blocks,
 * per response. The wait is time runnable in the kernel's run queue, waiting for a CPU; a request waits with the thread that
 * would serve it, and with an event loop's wait every connection of that loop waits (docs/telemetry.md, "Where the time goes").
 *
 * @param role             the threads' kernel name with numbers as N: {@code http-nio-N-e}, {@code reactor-http-ep} ...
 * @param threads          how many threads had it (the most in one block)
 * @param cpuUsPerRequest  their time on a CPU per response, µs
 * @param waitUsPerRequest their time waiting for a CPU per response, µs
 * @param slicesPerRequest their turns on a CPU per response
 * @param waitUsPerSlice   their mean wait per turn, µs; null without a turn
 */
public record ThreadUse(String role, int threads, double cpuUsPerRequest, double waitUsPerRequest, double slicesPerRequest, Double waitUsPerSlice) {
    /** From nanosecond sums over {@code responses}. */
    public static ThreadUse of(String role, int threads, long cpuNs, long waitNs, long slices, long responses) {
        return new ThreadUse(role, threads, Result.round(cpuNs / 1e3 / responses), Result.round(waitNs / 1e3 / responses),
                Result.round((double) slices / responses), slices == 0 ? null : Result.round(waitNs / 1e3 / slices));
    }
}
