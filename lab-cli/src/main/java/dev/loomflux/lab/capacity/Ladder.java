package dev.loomflux.lab.capacity;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rates a paired capacity run measures, one rung at a time, each chosen from what the rungs before it showed
 * (docs/guide.md, "Capacity in paired rounds"). Coarse first: from the start rate, four times the last rung until every
 * target has missed one (down by quarters when a target misses the lowest): a rung costs a minute of rounds, and the
 * refining halves a bracket's width in logs with each rung anyway. Then fine: the geometric middle of the widest
 * bracket (a target's highest rung held below its lowest failed) until every bracket is within the resolution. A rung
 * the driver could not offer ends the climb: no higher rung is tried, since nothing above it would be the targets'; a target
 * that missed none below it is refined up to it. Last, below a rung held only narrowly (a redraw of its rounds misses it often
 * enough to pull the interval's lower end under it, CapacityBootstrap), one rung a resolution lower, until a rung holds firmly
 * within the resolution: without it the interval's lower end falls to the coarse rung beneath, four times lower (CapacityIT's
 * knee at the theoretical rate, CI of 2026-12-03: 25-109 rps).
 */
public final class Ladder {
    /**
     * What one rung showed of one target: it met the SLO (firmly, or narrowly: the median of its rounds met it, but a redraw of
     * them misses it in more than 2.5% of draws), missed it, or the driver could not offer the rate.
     */
    public enum Outcome { HOLDS, HOLDS_NARROWLY, FAILS, DRIVER }

    /** The coarse phase's step between rungs. */
    static final int COARSE = 4;

    private final int start;
    private final int max;
    private final double resolution;
    private final int maxRungs;
    /** Per rate measured, each target's outcome. */
    private final TreeMap<Integer, Map<String, Outcome>> rungs = new TreeMap<>();

    /**
     * @param resolution stop refining a bracket when its upper rung is within this share of its lower, e.g. 0.05
     * @param maxRungs   the most rungs in all
     */
    public Ladder(int start, int max, double resolution, int maxRungs) {
        if (start < 1 || max < start || resolution <= 0 || maxRungs < 1) {
            throw new IllegalArgumentException("ladder " + start + ".." + max + " at " + resolution + ", " + maxRungs + " rungs");
        }
        this.start = start;
        this.max = max;
        this.resolution = resolution;
        this.maxRungs = maxRungs;
    }

    /** What a rung showed, per target. */
    public void measured(int rps, Map<String, Outcome> outcomes) {
        rungs.put(rps, Map.copyOf(outcomes));
    }

    /** The next rate to measure; -1 when the ladder is done. @param targets the targets still measured */
    public int next(List<String> targets) {
        if (rungs.isEmpty()) {
            return start;
        }
        if (rungs.size() >= maxRungs || targets.isEmpty()) {
            return -1;
        }
        Integer driverLimit = rungs.entrySet().stream().filter(e -> e.getValue().containsValue(Outcome.DRIVER)).map(Map.Entry::getKey).findFirst().orElse(null);
        int lowest = rungs.firstKey();
        int highest = rungs.lastKey();
        boolean someNeverFailed = targets.stream().anyMatch(t -> failedAt(t) == null);
        if (someNeverFailed && driverLimit == null && highest < max) {
            return (int) Math.min(max, (long) COARSE * highest);
        }
        if (targets.stream().anyMatch(t -> Integer.valueOf(lowest).equals(failedAt(t))) && lowest > 1) {
            int down = Math.max(1, lowest / COARSE);
            return rungs.containsKey(down) ? -1 : down;
        }
        int best = -1;
        double widest = 1 + resolution;
        for (String t : targets) {
            // A target that missed no rung below the driver's limit is bracketed by that limit: its capacity may lie under it.
            Integer upper = failedAt(t) != null ? failedAt(t) : driverLimit;
            Integer hold = upper == null ? null : heldBelow(t, upper);
            if (upper == null || hold == null || (double) upper / hold <= widest) {
                continue;
            }
            int middle = (int) Math.round(Math.sqrt((double) hold * upper));
            if (middle > hold && middle < upper && !rungs.containsKey(middle)) {
                widest = (double) upper / hold;
                best = middle;
            }
        }
        return best > 0 ? best : belowNarrow(targets, driverLimit);
    }

    /** A rung a resolution below a target's lowest narrow hold above its highest firm one, when those lie further apart; else -1. */
    private int belowNarrow(List<String> targets, Integer driverLimit) {
        for (String t : targets) {
            Integer upper = failedAt(t) != null ? failedAt(t) : driverLimit;
            if (upper == null) {
                continue;
            }
            Integer narrow = null;
            int firm = 0;
            for (Map.Entry<Integer, Map<String, Outcome>> e : rungs.headMap(upper, false).descendingMap().entrySet()) {
                Outcome o = e.getValue().get(t);
                if (o == Outcome.HOLDS) {
                    firm = e.getKey();
                    break;
                }
                narrow = o == Outcome.HOLDS_NARROWLY ? e.getKey() : narrow;
            }
            int down = narrow == null ? -1 : (int) Math.round(narrow / (1 + resolution));
            if (narrow != null && narrow > (1 + resolution) * firm && down >= 1 && down > firm && !rungs.containsKey(down)) {
                return down;
            }
        }
        return -1;
    }

    /** The lowest rung the target failed (missed the SLO), or null. */
    Integer failedAt(String target) {
        return rungs.entrySet().stream().filter(e -> e.getValue().get(target) == Outcome.FAILS).map(Map.Entry::getKey).findFirst().orElse(null);
    }

    /** The highest rung below {@code fail} the target held, or null. */
    private Integer heldBelow(String target, int fail) {
        return rungs.headMap(fail, false).descendingMap().entrySet().stream().filter(e -> e.getValue().get(target) == Outcome.HOLDS
                        || e.getValue().get(target) == Outcome.HOLDS_NARROWLY).map(Map.Entry::getKey).findFirst().orElse(null);
    }

    /** The rates measured so far, lowest first. */
    public List<Integer> rates() {
        return List.copyOf(rungs.keySet());
    }
}
