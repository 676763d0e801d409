package dev.loomflux.lab.capacity;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How {@code ./lab capacity} searches: open-model rate steps, the first with the experiment's full
 * warmup (cold JIT), later ones with a short settle-in warmup at their own rate.
 */
public record CapacityPlan(Slo slo, int startRps, int maxRps, Duration stepDuration, Duration stepWarmup,
                           double resolution, int maxSteps) {
    /** Most requests in flight a step allows. */
    public static final int MAX_IN_FLIGHT = 5000;

    /**
     * In-flight slots for a rate: twice what Little's law needs when every request takes the SLO's
     * latency. A step that needs more is over the SLO on average anyway, and shows as behind schedule.
     */
    public int inFlight(int rps) {
        return (int) Math.max(100, Math.min(MAX_IN_FLIGHT, Math.ceil(2 * rps * slo.maxMs() / 1000.0)));
    }

    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("slo", slo.toString());
        m.put("start_rps", startRps);
        m.put("max_rps", maxRps);
        m.put("step_s", stepDuration.toMillis() / 1000.0);
        m.put("step_warmup_s", stepWarmup.toMillis() / 1000.0);
        m.put("resolution", resolution);
        m.put("max_steps", maxSteps);
        return m;
    }
}
