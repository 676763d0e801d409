package dev.loomflux.lab.wrk;

/**
 * What one wrk run reported.
 *
 * @param requestsPerSecond wrk's "Requests/sec:" line: completed requests / run time
 * @param requests          completed requests ("N requests in T")
 * @param seconds           the run time wrk measured
 * @param p50Ms             latency percentiles from {@code --latency}; NaN when absent
 * @param non2xx            "Non-2xx or 3xx responses"; 0 when wrk printed no such line
 * @param socketErrors      connect + read + write + timeout socket errors; 0 when none printed
 */
public record WrkResult(double requestsPerSecond, long requests, double seconds, double p50Ms, double p90Ms,
                        double p99Ms, long non2xx, long socketErrors) {
    public long errors() {
        return non2xx + socketErrors;
    }
}
