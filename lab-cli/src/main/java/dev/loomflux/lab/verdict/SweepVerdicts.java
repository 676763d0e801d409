package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.result.SweepMap.AxisValues;
import dev.loomflux.lab.result.SweepMap.Cell;
import dev.loomflux.lab.result.SweepMap.Figure;
import dev.loomflux.lab.result.SweepMap.GridAxis;
import dev.loomflux.lab.result.SweepMap.TargetFigures;
import dev.loomflux.lab.result.SweepMap.Winner;
import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Draws results.json's "sweep" (docs/sweep.md) from a sweep's measurements: per scenario and cell, every
 * target's medians, and per metric the winner when it is clear; then where the winner changes, in words.
 * Over repeats, a cell's winner is clear only when it beats every other target significantly
 * (docs/statistics.md) and every result of the cell is steady; in paired rounds, when its paired
 * comparison with every other target is decided its way. Otherwise the cell says why there is none.
 * Crossovers are found pair by pair of targets.
 */
public final class SweepVerdicts {
    private SweepVerdicts() {
    }

    /** One target x scenario x cell of the grid, with its measurements. */
    public record Entry(String target, String scenario, Map<String, Integer> at, Result result) {
    }

    /**
     * One pair's paired comparison in one cell (results.json comparisons), as a map drawn from rounds reads it.
     *
     * @param outcome {@link PairComparison}'s: "a", "b", "equivalent" or "undecided"
     */
    public record PairOutcome(String scenario, Map<String, Integer> at, Metric metric, String a, String b, String outcome) {
    }

    /**
     * @param axes    the grid's axes, as the cells' {@code at} name them
     * @param targets the declared targets, in order (variants of a target axis count as their base)
     */
    public static SweepMap of(List<? extends GridAxis> grid, List<String> targets, List<String> scenarios, List<Entry> entries) {
        return build(grid, targets, scenarios, entries, null, Metric.SWEPT, "per cell and metric, the median over repeats; a winner when it beats "
                + "every other target with a 95% bootstrap CI of the difference excluding 0, Mann-Whitney U p < " + Stats.ALPHA + " and a lead of at "
                + "least " + Stats.MIN_EFFECT_PCT + "%, with >= " + Stats.MIN_REPEATS + " repeats each, all of them steady; a crossover where one "
                + "target clearly beats another in one cell and loses clearly to it in the next such cell along an axis (docs/sweep.md)");
    }

    /**
     * The map of a sweep measured in paired rounds: per cell, the targets' figures over their blocks, and
     * per compared metric a winner where it is ahead of every other target by its paired comparison, or
     * "equivalent" where every other target is within 5% of it.
     */
    public static SweepMap ofRounds(List<? extends GridAxis> grid, List<String> targets, List<String> scenarios, List<Entry> entries, List<PairOutcome> pairs) {
        return build(grid, targets, scenarios, entries, pairs, Comparisons.METRICS, "per cell and metric, every target measured in the same "
                + "interleaved rounds; a winner when its paired comparison with every other target puts the whole 95% CI of the per-round ratio "
                + "beyond 5% (Hodges-Lehmann, Wilcoxon signed-rank), equivalent when every such CI lies within +-5%; a crossover where one target "
                + "clearly beats another in one cell and loses clearly to it in the next such cell along an axis (docs/sweep.md)");
    }

    /** @param pairs the paired comparisons the leads come from; null to judge the repeats' results instead */
    private static SweepMap build(List<? extends GridAxis> grid, List<String> targets, List<String> scenarios, List<Entry> entries, List<PairOutcome> pairs,
                                  List<Metric> metrics, String method) {
        List<AxisValues> axes = grid.stream().map(a -> new AxisValues(a.name(), a.label(), a.values())).toList();
        List<Cell> cells = new ArrayList<>();
        List<PairLead> leads = new ArrayList<>();
        for (String scenario : scenarios) {
            Map<Map<String, Integer>, List<Entry>> byCell = new LinkedHashMap<>();
            entries.stream().filter(e -> e.scenario().equals(scenario)).forEach(e -> byCell.computeIfAbsent(e.at(), k -> new ArrayList<>()).add(e));
            byCell.forEach((at, in) -> {
                Map<String, List<Result>> byTarget = byTarget(targets, in);
                List<PairOutcome> here = pairs == null ? null
                        : pairs.stream().filter(p -> p.scenario().equals(scenario) && p.at().equals(at)).toList();
                List<PairLead> cellLeads = here == null ? pairLeads(scenario, at, byTarget) : pairLeads(scenario, at, here);
                List<String> unmeasured = targets.stream().filter(t -> !byTarget.containsKey(t)).toList();
                cells.add(cell(scenario, at, byTarget, cellLeads, here, metrics, unmeasured.isEmpty() ? null : unmeasured));
                leads.addAll(cellLeads);
            });
        }
        List<String> crossovers = new ArrayList<>();
        for (String scenario : scenarios) {
            for (Metric m : metrics) {
                for (GridAxis axis : grid) {
                    for (int i = 0; i < targets.size(); i++) {
                        for (int j = i + 1; j < targets.size(); j++) {
                            crossovers.addAll(crossovers(scenario, m, targets.get(i), targets.get(j), axis, grid, leads));
                        }
                    }
                }
            }
        }
        return new SweepMap(axes, targets, cells, crossovers, method);
    }

    /** Leads from paired comparisons: a pair decided either way. */
    private static List<PairLead> pairLeads(String scenario, Map<String, Integer> at, List<PairOutcome> pairs) {
        List<PairLead> out = new ArrayList<>();
        for (PairOutcome p : pairs) {
            if (p.outcome().equals(PairComparison.A) || p.outcome().equals(PairComparison.B)) {
                out.add(new PairLead(scenario, at, p.metric().summaryName(), p.a(), p.b(), p.outcome().equals(PairComparison.A) ? p.a() : p.b()));
            }
        }
        return out;
    }

    /** One target's clear win over another on one metric in one cell, by the same rules as a cell's winner. */
    private record PairLead(String scenario, Map<String, Integer> at, String metric, String a, String b, String winner) {
    }

    private static Map<String, List<Result>> byTarget(List<String> targets, List<Entry> in) {
        Map<String, List<Result>> byTarget = new LinkedHashMap<>();
        for (String t : targets) {
            List<Result> ok = in.stream().filter(e -> e.target().equals(t) && e.result().ok()).map(Entry::result).toList();
            if (!ok.isEmpty()) {
                byTarget.put(t, ok);
            }
        }
        return byTarget;
    }

    private static List<PairLead> pairLeads(String scenario, Map<String, Integer> at, Map<String, List<Result>> byTarget) {
        List<PairLead> out = new ArrayList<>();
        List<String> present = new ArrayList<>(byTarget.keySet());
        for (Metric m : Metric.SWEPT) {
            for (int i = 0; i < present.size(); i++) {
                for (int j = i + 1; j < present.size(); j++) {
                    List<Result> a = byTarget.get(present.get(i));
                    List<Result> b = byTarget.get(present.get(j));
                    double[] sa = samples(a, m);
                    double[] sb = samples(b, m);
                    if (sa.length == 0 || sb.length == 0 || !a.stream().allMatch(Result::steady) || !b.stream().allMatch(Result::steady)) {
                        continue;
                    }
                    Verdict v = Stats.compare(m.summaryName(), present.get(i), sa, present.get(j), sb, m.higherIsBetter());
                    if (v.significant()) {
                        out.add(new PairLead(scenario, at, m.summaryName(), present.get(i), present.get(j), v.winner()));
                    }
                }
            }
        }
        return out;
    }

    private static Cell cell(String scenario, Map<String, Integer> at, Map<String, List<Result>> byTarget, List<PairLead> leads, List<PairOutcome> pairs,
                             List<Metric> compared, List<String> unmeasured) {
        List<TargetFigures> figures = new ArrayList<>();
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
        for (Metric m : compared) {
            Winner w = winner(m, figures, leads, pairs);
            if (w != null) {
                winners.add(w);
            }
        }
        return new Cell(scenario, at, figures, winners, unmeasured);
    }

    private static double[] samples(List<Result> rs, Metric m) {
        return rs.stream().map(m::read).filter(x -> x != null && Double.isFinite(x)).mapToDouble(Double::doubleValue).toArray();
    }

    /** Null when fewer than two targets have the metric. @param pairs the cell's paired comparisons, null for repeats */
    private static Winner winner(Metric m, List<TargetFigures> figures, List<PairLead> leads, List<PairOutcome> pairs) {
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
        String verdict = SweepMap.CLEAR;
        boolean allEquivalent = pairs != null;
        for (TargetFigures other : have.subList(1, have.size())) {
            if (!best.steady() || !other.steady()) {
                verdict = SweepMap.UNSTEADY;
                break;
            }
            boolean beats = leads.stream().anyMatch(l -> l.metric().equals(m.summaryName()) && best.target().equals(l.winner())
                    && (l.a().equals(other.target()) || l.b().equals(other.target())));
            allEquivalent &= pairs != null && pairs.stream().anyMatch(p -> p.metric() == m && p.outcome().equals(PairComparison.EQUIVALENT)
                    && Set.of(p.a(), p.b()).equals(Set.of(best.target(), other.target())));
            if (pairs == null && (best.n() < Stats.MIN_REPEATS || other.n() < Stats.MIN_REPEATS)) {
                verdict = SweepMap.TOO_FEW;
            } else if (!beats) {
                verdict = verdict.equals(SweepMap.TOO_FEW) ? SweepMap.TOO_FEW : SweepMap.UNCLEAR;
            }
        }
        if (verdict.equals(SweepMap.UNCLEAR) && allEquivalent) {
            verdict = SweepMap.EQUIVALENT;
        }
        return new Winner(m.summaryName(), verdict, best.target(), second.target(), margin);
    }

    /**
     * Along one axis, the other axes held, for one pair of targets: each place where the nearest two
     * cells in which one of them clearly beats the other have different winners. With more than two
     * targets a cell's winner must beat all of them, which hides "webflux overtakes mvc" wherever
     * mvc-vt ties webflux; the pair does not. "mvc-vt overtakes mvc-10 on throughput between 5 users
     * and 50 users (50 ms delay)".
     */
    private static List<String> crossovers(String scenario, Metric m, String a, String b, GridAxis axis, List<? extends GridAxis> axes, List<PairLead> leads) {
        Map<Map<String, Integer>, List<PairLead>> lines = new LinkedHashMap<>();
        for (PairLead l : leads) {
            if (l.scenario().equals(scenario) && l.metric().equals(m.summaryName()) && l.a().equals(a) && l.b().equals(b) && l.at().containsKey(axis.name())) {
                Map<String, Integer> rest = new LinkedHashMap<>(l.at());
                rest.remove(axis.name());
                lines.computeIfAbsent(rest, k -> new ArrayList<>()).add(l);
            }
        }
        List<String> out = new ArrayList<>();
        lines.forEach((rest, line) -> {
            List<PairLead> sorted = line.stream().sorted((x, y) -> Integer.compare(x.at().get(axis.name()), y.at().get(axis.name()))).toList();
            for (int i = 1; i < sorted.size(); i++) {
                String before = sorted.get(i - 1).winner();
                String after = sorted.get(i).winner();
                if (!Objects.equals(before, after)) {
                    List<String> held = new ArrayList<>();
                    rest.forEach((k, v) -> held.add(describe(axes, k, v)));
                    out.add(String.format(Locale.ROOT, "%s: %s overtakes %s on %s between %s and %s%s", scenario, after, before, m.words(),
                            describe(axes, axis.name(), sorted.get(i - 1).at().get(axis.name())),
                            describe(axes, axis.name(), sorted.get(i).at().get(axis.name())),
                            held.isEmpty() ? "" : " (" + String.join(", ", held) + ")"));
                }
            }
        });
        return out;
    }

    private static String describe(List<? extends GridAxis> axes, String name, int value) {
        return axes.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow().describe(value);
    }
}
