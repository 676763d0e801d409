package dev.loomflux.lab.capacity;

import java.time.Duration;

/**
 * How {@code ./lab capacity} searches: open-model rate steps, the first with the experiment's full
 * warmup (cold JIT), later ones with a short settle-in warmup at their own rate.
 */
public record CapacityPlan(Slo slo, int startRps, int maxRps, Duration stepDuration, Duration stepWarmup,
                           double resolution, int maxSteps) {
    /** Most requests in flight a step allows. */
    public static final int MAX_IN_FLIGHT = 5000;

    /**
     * In-flight slots for a rate: what Little's law needs when requests take twice the SLO's latency,
     * and at least a quarter second's worth of arrivals, so that one GC pause of a target meeting its
     * SLO does not exhaust the slots (at 1000/s and a 50 ms SLO, 100 slots failed a step whose p99 was
     * 47 ms over a 113 ms hiccup). A step that needs more is over the SLO anyway, and shows as behind
     * schedule.
     */
    public int inFlight(int rps) {
        double seconds = Math.max(2 * slo.maxMs() / 1000.0, MIN_SLOT_SECONDS);
        return (int) Math.max(100, Math.min(MAX_IN_FLIGHT, Math.ceil(rps * seconds)));
    }

    private static final double MIN_SLOT_SECONDS = 0.25;
}
