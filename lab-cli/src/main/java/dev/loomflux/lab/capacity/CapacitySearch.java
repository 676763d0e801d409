package dev.loomflux.lab.capacity;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The highest rate that meets an SLO: double from a start rate until a step fails, then bisect
 * between the best passing and the first failing rate until they are within {@code resolution}.
 * Then the failing bound is tried once more: a target that was still warming up, or a noisy minute
 * of the machine, can fail a rate early that it meets later, and one such miss would otherwise cap
 * the search for good (webflux, gateway over 20 ms: 400 rps missed twice early in one search, 2,900
 * met in the search before). If the bound passes now, the search goes on above it. Assumes latency
 * otherwise only gets worse with more load; the report shows every step.
 */
public final class CapacitySearch {
    /** One tried rate. */
    public record Trial(int rps, boolean passed) {
    }

    /** @param capacity the highest passing rate; 0 when even the lowest tried rate failed */
    public record Found(int capacity, List<Trial> steps, boolean reachedMax) {
    }

    private CapacitySearch() {
    }

    /**
     * @param passes     runs one step at the given rate and says whether it met the SLO
     * @param resolution stop when (fail - pass) <= resolution x fail, e.g. 0.05
     */
    public static Found search(int startRps, int maxRps, double resolution, int maxSteps, IntPredicate passes) {
        List<Trial> steps = new ArrayList<>();
        Set<Integer> retried = new HashSet<>();
        int pass = 0;
        int rps = Math.min(startRps, maxRps);
        while (steps.size() < maxSteps) {
            int fail = -1;
            while (fail < 0 && steps.size() < maxSteps) {
                boolean ok = passes.test(rps);
                steps.add(new Trial(rps, ok));
                if (!ok) {
                    fail = rps;
                } else {
                    pass = rps;
                    if (rps >= maxRps) {
                        return new Found(pass, steps, true);
                    }
                    rps = (int) Math.min((long) rps * 2, maxRps);
                }
            }
            while (fail > 0 && fail - pass > Math.max(1, resolution * fail) && steps.size() < maxSteps) {
                int mid = pass + (fail - pass) / 2;
                boolean ok = passes.test(mid);
                steps.add(new Trial(mid, ok));
                if (ok) {
                    pass = mid;
                } else {
                    fail = mid;
                }
            }
            if (fail < 0 || !retried.add(fail) || steps.size() >= maxSteps) {
                break;
            }
            boolean ok = passes.test(fail);
            steps.add(new Trial(fail, ok));
            if (!ok) {
                break;
            }
            pass = fail;
            if (fail >= maxRps) {
                return new Found(pass, steps, true);
            }
            rps = (int) Math.min((long) fail * 2, maxRps);
        }
        return new Found(pass, steps, false);
    }
}
