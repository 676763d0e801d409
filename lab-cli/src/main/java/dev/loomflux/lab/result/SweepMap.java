package dev.loomflux.lab.result;

import dev.loomflux.lab.experiment.Sweep;
import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * results.json "sweep" (docs/sweep.md): per scenario and cell, every target's medians over repeats,
 * and per metric the winner when it is clear; then where the winner changes, in words. A cell's
 * winner is clear only when it beats every other target significantly (docs/statistics.md) and every
 * result of the cell is steady; otherwise the cell says why there is none.
 */
public record SweepMap(List<Axis> axes, List<String> targets, List<Cell> cells, List<String> crossovers, String method) {
    /** @param label short, for headings: "users", "delay", "threads.max" */
    public record Axis(String name, String label, List<Integer> values) {
    }

    /** One target x scenario x cell of the grid, with its measurements. */
    public record Entry(String target, String scenario, Map<String, Integer> at, Result result) {
    }

    public record Cell(String scenario, Map<String, Integer> at, List<TargetFigures> targets, List<Winner> winners) {
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

    /**
     * @param axes    the grid's axes, as the cells' {@code at} name them
     * @param targets the declared targets, in order (variants of a target axis count as their base)
     */
    public static SweepMap of(List<Sweep.Axis> grid, List<String> targets, List<String> scenarios, List<Entry> entries) {
        List<Axis> axes = grid.stream().map(a -> new Axis(a.name(), a.label(), a.values())).toList();
        List<Cell> cells = new ArrayList<>();
        for (String scenario : scenarios) {
            Map<Map<String, Integer>, List<Entry>> byCell = new LinkedHashMap<>();
            entries.stream().filter(e -> e.scenario().equals(scenario)).forEach(e -> byCell.computeIfAbsent(e.at(), k -> new ArrayList<>()).add(e));
            byCell.forEach((at, in) -> cells.add(cell(scenario, at, targets, in)));
        }
        List<String> crossovers = new ArrayList<>();
        for (String scenario : scenarios) {
            for (Metric m : Metric.SWEPT) {
                for (Sweep.Axis axis : grid) {
                    crossovers.addAll(crossovers(scenario, m, axis, grid, cells));
                }
            }
        }
        return new SweepMap(axes, targets, cells, crossovers, "per cell and metric, the median over repeats; a winner when it beats every other target "
                + "with a 95% bootstrap CI of the difference excluding 0 and Mann-Whitney U p < " + Stats.ALPHA + ", with >= " + Stats.MIN_REPEATS
                + " repeats each, all of them steady; a crossover only between two cells with clear, different winners (docs/sweep.md)");
    }

    private static Cell cell(String scenario, Map<String, Integer> at, List<String> targets, List<Entry> in) {
        List<TargetFigures> figures = new ArrayList<>();
        Map<String, List<Result>> byTarget = new LinkedHashMap<>();
        for (String t : targets) {
            List<Result> ok = in.stream().filter(e -> e.target().equals(t) && e.result().ok()).map(Entry::result).toList();
            if (!ok.isEmpty()) {
                byTarget.put(t, ok);
            }
        }
        byTarget.forEach((t, rs) -> {
            Map<String, Figure> metrics = new LinkedHashMap<>();
            for (Metric m : Metric.SWEPT) {
                double[] v = samples(rs, m);
                if (v.length > 0) {
                    Estimate e = Stats.summarize(v);
                    metrics.put(m.summaryName(), new Figure(Result.round(e.median()), Result.round(e.ciLow()), Result.round(e.ciHigh())));
                }
            }
            figures.add(new TargetFigures(t, rs.size(), rs.stream().allMatch(Result::steady), metrics));
        });
        List<Winner> winners = new ArrayList<>();
        for (Metric m : Metric.SWEPT) {
            Winner w = winner(m, figures, byTarget);
            if (w != null) {
                winners.add(w);
            }
        }
        return new Cell(scenario, at, figures, winners);
    }

    private static double[] samples(List<Result> rs, Metric m) {
        return rs.stream().map(m::read).filter(x -> x != null && Double.isFinite(x)).mapToDouble(Double::doubleValue).toArray();
    }

    /** Null when fewer than two targets have the metric. */
    private static Winner winner(Metric m, List<TargetFigures> figures, Map<String, List<Result>> byTarget) {
        List<TargetFigures> have = figures.stream().filter(f -> f.metrics().containsKey(m.summaryName())).sorted((a, b) -> {
            int c = Double.compare(a.metrics().get(m.summaryName()).median(), b.metrics().get(m.summaryName()).median());
            return m.higherIsBetter() ? -c : c;
        }).toList();
        if (have.size() < 2) {
            return null;
        }
        TargetFigures best = have.get(0);
        TargetFigures second = have.get(1);
        double b = best.metrics().get(m.summaryName()).median();
        double s = second.metrics().get(m.summaryName()).median();
        Double margin = s == 0 ? null : Result.round(100 * (m.higherIsBetter() ? b - s : s - b) / Math.abs(s));
        String verdict = CLEAR;
        for (TargetFigures other : have.subList(1, have.size())) {
            Verdict v = Stats.compare(m.summaryName(), best.target(), samples(byTarget.get(best.target()), m), other.target(),
                    samples(byTarget.get(other.target()), m), m.higherIsBetter());
            if (!best.steady() || !other.steady()) {
                verdict = UNSTEADY;
                break;
            }
            if (best.n() < Stats.MIN_REPEATS || other.n() < Stats.MIN_REPEATS) {
                verdict = TOO_FEW;
            } else if (!v.significant() || !best.target().equals(v.winner())) {
                verdict = verdict.equals(TOO_FEW) ? TOO_FEW : UNCLEAR;
            }
        }
        return new Winner(m.summaryName(), verdict, best.target(), second.target(), margin);
    }

    /**
     * Along one axis, the other axes held: each place where two cells with clear winners, the nearest
     * such pair, have different winners. "mvc-vt overtakes mvc-10 on throughput between 5 and 50 users
     * (50 ms delay)".
     */
    private static List<String> crossovers(String scenario, Metric m, Sweep.Axis axis, List<Sweep.Axis> axes, List<Cell> cells) {
        Map<Map<String, Integer>, List<Cell>> lines = new LinkedHashMap<>();
        for (Cell c : cells) {
            if (c.scenario().equals(scenario) && c.at().containsKey(axis.name())) {
                Map<String, Integer> rest = new LinkedHashMap<>(c.at());
                rest.remove(axis.name());
                lines.computeIfAbsent(rest, k -> new ArrayList<>()).add(c);
            }
        }
        List<String> out = new ArrayList<>();
        lines.forEach((rest, line) -> {
            List<Cell> clear = line.stream().filter(c -> c.winner(m.summaryName()) != null && c.winner(m.summaryName()).clear())
                    .sorted((a, b) -> Integer.compare(a.at().get(axis.name()), b.at().get(axis.name()))).toList();
            for (int i = 1; i < clear.size(); i++) {
                String before = clear.get(i - 1).winner(m.summaryName()).leader();
                String after = clear.get(i).winner(m.summaryName()).leader();
                if (!Objects.equals(before, after)) {
                    List<String> held = new ArrayList<>();
                    rest.forEach((k, v) -> held.add(describe(axes, k, v)));
                    out.add(String.format(Locale.ROOT, "%s: %s overtakes %s on %s between %s and %s%s", scenario, after, before, m.words(),
                            describe(axes, axis.name(), clear.get(i - 1).at().get(axis.name())),
                            describe(axes, axis.name(), clear.get(i).at().get(axis.name())),
                            held.isEmpty() ? "" : " (" + String.join(", ", held) + ")"));
                }
            }
        });
        return out;
    }

    private static String describe(List<Sweep.Axis> axes, String name, int value) {
        return axes.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow().describe(value);
    }
}
