package dev.loomflux.lab.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The highest rate that meets an SLO: double from a start rate until a step fails, then bisect
 * between the best passing and the first failing rate until they are within {@code resolution}.
 * Assumes latency only gets worse with more load, which holds for one target below and around its
 * knee; a noisy step can still mislead it, so the report shows every step.
 */
public final class CapacitySearch {
    /** One tried rate. */
    public record Step(int rps, boolean passed) {
    }

    /** @param capacity the highest passing rate; 0 when even the lowest tried rate failed */
    public record Outcome(int capacity, List<Step> steps, boolean reachedMax) {
    }

    private CapacitySearch() {
    }

    /**
     * @param passes     runs one step at the given rate and says whether it met the SLO
     * @param resolution stop when (fail - pass) <= resolution x fail, e.g. 0.05
     */
    public static Outcome search(int startRps, int maxRps, double resolution, int maxSteps, IntPredicate passes) {
        List<Step> steps = new ArrayList<>();
        int pass = 0;
        int fail = -1;
        int rps = Math.min(startRps, maxRps);
        while (fail < 0 && steps.size() < maxSteps) {
            boolean ok = passes.test(rps);
            steps.add(new Step(rps, ok));
            if (!ok) {
                fail = rps;
            } else {
                pass = rps;
                if (rps >= maxRps) {
                    return new Outcome(pass, steps, true);
                }
                rps = (int) Math.min((long) rps * 2, maxRps);
            }
        }
        while (fail > 0 && fail - pass > Math.max(1, resolution * fail) && steps.size() < maxSteps) {
            int mid = pass + (fail - pass) / 2;
            boolean ok = passes.test(mid);
            steps.add(new Step(mid, ok));
            if (ok) {
                pass = mid;
            } else {
                fail = mid;
            }
        }
        return new Outcome(pass, steps, false);
    }
}
