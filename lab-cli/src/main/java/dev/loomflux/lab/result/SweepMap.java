package dev.loomflux.lab.result;

import java.util.List;
import java.util.Map;

/**
 * results.json "sweep" (docs/sweep.md): per scenario and cell, every target's medians, and per metric
 * the winner when it is clear or why there is none; then where the winner changes, in words. Drawn by
 * {@code verdict.SweepVerdicts}.
 */
public record SweepMap(List<AxisValues> axes, List<String> targets, List<Cell> cells, List<String> crossovers, String method) {
    /** An axis of the sweep's grid as the map reads it (the experiment's sweep axis is one). */
    public interface GridAxis {
        String name();

        /** Short, for headings: "users", "delay", "threads.max". */
        String label();

        List<Integer> values();

        /** One value in words: "50 users", "20 ms delay". */
        String describe(int value);
    }

    public record AxisValues(String name, String label, List<Integer> values) {
    }

    /**
     * @param unmeasured declared targets without a successful result in this cell (failed to start,
     *                   exited, or the measurement failed); null when there are none. The winners are
     *                   among the others, so a reader must see these.
     */
    public record Cell(String scenario, Map<String, Integer> at, List<TargetFigures> targets, List<Winner> winners, List<String> unmeasured) {
        public Winner winner(String metric) {
            return winners.stream().filter(w -> w.metric().equals(metric)).findFirst().orElse(null);
        }
    }

    /** @param metrics by the metric's summary name (throughput_rps, p99_ms, ...) */
    public record TargetFigures(String target, int n, boolean steady, Map<String, Figure> metrics) {
    }

    public record Figure(double median, double ciLow, double ciHigh) {
    }

    /**
     * @param verdict   {@link #CLEAR}, {@link #UNCLEAR}, {@link #UNSTEADY} or {@link #TOO_FEW}
     * @param leader    the best median, clear or not
     * @param marginPct how far the leader is ahead of the runner-up, in the metric's better direction
     */
    public record Winner(String metric, String verdict, String leader, String runnerUp, Double marginPct) {
        public boolean clear() {
            return CLEAR.equals(verdict);
        }
    }

    /** How many cell x metric pairs have a verdict, and how many of them a clear winner: {clear, all}. */
    public int[] clearOfAll() {
        int clear = 0;
        int all = 0;
        for (Cell c : cells) {
            for (Winner w : c.winners()) {
                all++;
                clear += w.clear() ? 1 : 0;
            }
        }
        return new int[] {clear, all};
    }

    public static final String CLEAR = "clear";
    public static final String UNCLEAR = "no clear difference";
    public static final String UNSTEADY = "not steady";
    public static final String TOO_FEW = "too few repeats";
    /** Paired rounds only: every other target within 5% of the leader, either way. */
    public static final String EQUIVALENT = "equivalent within 5%";
}
