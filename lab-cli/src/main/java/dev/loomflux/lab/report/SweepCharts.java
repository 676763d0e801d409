package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A sweep's charts: per scenario and metric a heatmap of the grid (each cell names its winner and
 * margin, paler the narrower the margin, grey where there is no clear one), and per axis a line
 * chart of the metric against the axis, one line per target (and value of the other axis) with its
 * 95% confidence band.
 */
final class SweepCharts {
    private SweepCharts() {
    }

    /** The ids report.html gives the sweep's charts, in the order {@link #add} makes them. */
    static List<String> ids(SweepMap map, int scenario) {
        List<String> ids = new ArrayList<>();
        for (Metric m : Metric.SWEPT) {
            ids.add(id(scenario, m, "map"));
            for (int a = 0; a < map.axes().size(); a++) {
                ids.add(id(scenario, m, "axis" + a));
            }
        }
        return ids;
    }

    static void add(ArrayNode charts, SweepMap map) {
        List<String> scenarios = map.cells().stream().map(SweepMap.Cell::scenario).distinct().toList();
        for (int i = 0; i < scenarios.size(); i++) {
            String scenario = scenarios.get(i);
            List<SweepMap.Cell> cells = map.cells().stream().filter(c -> c.scenario().equals(scenario)).toList();
            for (Metric m : Metric.SWEPT) {
                heatmap(charts.addObject(), id(i, m, "map"), scenario, m, map, cells);
                for (int a = 0; a < map.axes().size(); a++) {
                    lines(charts.addObject(), id(i, m, "axis" + a), scenario, m, map, a, cells);
                }
            }
        }
    }

    private static String id(int scenario, Metric m, String what) {
        return "sweep-s" + scenario + "-" + m.id() + "-" + what;
    }

    private static void heatmap(ObjectNode c, String id, String scenario, Metric m, SweepMap map, List<SweepMap.Cell> cells) {
        SweepMap.AxisValues x = map.axes().get(0);
        SweepMap.AxisValues y = map.axes().size() > 1 ? map.axes().get(1) : null;
        ChartData.chart(c, id, scenario + ": " + m.words() + ", who wins where", "heatmap", x.label(), y == null ? "" : y.label());
        ArrayNode xs = c.putArray("x");
        x.values().forEach(v -> xs.add(v.toString()));
        ArrayNode ys = c.putArray("y");
        if (y == null) {
            ys.add("");
        } else {
            y.values().forEach(v -> ys.add(v.toString()));
        }
        ArrayNode targets = c.putArray("targets");
        map.targets().forEach(targets::add);
        ArrayNode data = c.putArray("cells");
        for (SweepMap.Cell cell : cells) {
            SweepMap.Winner w = cell.winner(m.summaryName());
            int xi = x.values().indexOf(cell.at().get(x.name()));
            int yi = y == null ? 0 : y.values().indexOf(cell.at().get(y.name()));
            if (xi < 0 || yi < 0) {
                continue;
            }
            // The value is the winner's index among the targets, or -1: grey, no clear winner; then the label and the shade.
            data.addArray().add(xi).add(yi).add(w != null && w.clear() ? map.targets().indexOf(w.leader()) : -1).add(Cells.label(cell, m.summaryName()))
                    .add(shade(w));
        }
    }

    /**
     * How opaque a cell's colour is: a clear winner's margin on a log scale, from 0.3 at the lab's
     * 5% floor to 1 at a 2x lead, so a narrow win reads paler than a rout; other cells are opaque.
     */
    static double shade(SweepMap.Winner w) {
        if (w == null || !w.clear() || w.marginPct() == null) {
            return 1;
        }
        double t = Math.log(w.marginPct() / Stats.MIN_EFFECT_PCT) / Math.log(100 / Stats.MIN_EFFECT_PCT);
        return Math.round(100 * (0.3 + 0.7 * Math.max(0, Math.min(1, t)))) / 100.0;
    }

    private static void lines(ObjectNode c, String id, String scenario, Metric m, SweepMap map, int axis, List<SweepMap.Cell> cells) {
        SweepMap.AxisValues x = map.axes().get(axis);
        SweepMap.AxisValues other = map.axes().size() > 1 ? map.axes().get(1 - axis) : null;
        ChartData.chart(c, id, scenario + ": " + m.words() + " by " + x.label() + " (95% CI)", "sweep", x.label(), m.unit());
        ArrayNode xs = c.putArray("x");
        x.values().forEach(v -> xs.add(v.toString()));
        ArrayNode series = c.putArray("series");
        for (String target : map.targets()) {
            for (Integer held : other == null ? java.util.Collections.<Integer>singletonList(null) : other.values()) {
                ObjectNode s = series.addObject().put("name", target + (held == null ? "" : " @ " + other.label() + " " + held));
                ArrayNode data = s.putArray("data");
                for (int v : x.values()) {
                    SweepMap.Figure f = figure(cells, target, m, Map.of(x.name(), v), other == null ? null : other.name(), held);
                    ArrayNode point = data.addArray();
                    if (f == null) {
                        point.addNull().addNull().addNull();
                    } else {
                        point.add(f.median()).add(f.ciLow()).add(f.ciHigh());
                    }
                }
            }
        }
    }

    private static SweepMap.Figure figure(List<SweepMap.Cell> cells, String target, Metric m, Map<String, Integer> at, String otherName, Integer held) {
        for (SweepMap.Cell c : cells) {
            boolean here = at.entrySet().stream().allMatch(e -> e.getValue().equals(c.at().get(e.getKey())))
                    && (otherName == null || held.equals(c.at().get(otherName)));
            if (here) {
                return c.targets().stream().filter(t -> t.target().equals(target)).map(t -> t.metrics().get(m.summaryName()))
                        .filter(java.util.Objects::nonNull).findFirst().orElse(null);
            }
        }
        return null;
    }
}
