package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Each metric's change from run A to run B, per target x scenario (x repeat, x step) present in both. */
public final class Comparison {
    /** @param unsteady "" or which side's result was not steady ("A", "B", "A, B"): its breaches are no regression */
    record MetricChange(String target, String scenario, Metric metric, Double a, Double b, Double changePercent, List<Threshold> breached,
               String unsteady) {
        boolean regression() {
            return !breached.isEmpty() && unsteady.isEmpty();
        }
    }

    private final List<MetricChange> rows = new ArrayList<>();
    private final List<String> unmatched = new ArrayList<>();
    private String unsteadyLine;

    public static Comparison of(RunRecord runA, RunRecord runB, List<Threshold> thresholds) {
        Comparison c = new Comparison();
        Pairs pairs = Pairs.of(runA, runB);
        c.unmatched.addAll(pairs.unmatched());
        c.unsteadyLine = pairs.unsteadyLine("their changes count as no regression");
        for (Pairs.Pair p : pairs.matched()) {
            String unsteady = p.unsteady();
            for (Metric m : Metric.OF_RESULT) {
                c.add(p.target(), p.where(), m, m.read(p.a()), m.read(p.b()), thresholds, unsteady);
            }
        }
        c.searches(list(runA.summaries().capacity()), list(runB.summaries().capacity()), thresholds);
        c.medians(list(runA.summaries().capacitySummary()), list(runB.summaries().capacitySummary()), thresholds);
        return c;
    }

    /**
     * Capacity searches (./lab capacity) by target x scenario x repeat: the knee each run found.
     * Searches under different SLOs found different things.
     */
    private void searches(List<CapacitySearchResult> a, List<CapacitySearchResult> b, List<Threshold> thresholds) {
        boolean repeated = a.stream().anyMatch(s -> s.repeat() > 1) || b.stream().anyMatch(s -> s.repeat() > 1);
        for (CapacitySearchResult sa : a) {
            String where = sa.scenario() + (repeated ? " r" + sa.repeat() : "");
            CapacitySearchResult sb = b.stream().filter(s -> s.target().equals(sa.target()) && s.scenario().equals(sa.scenario())
                    && s.repeat() == sa.repeat()).findFirst().orElse(null);
            if (sb == null) {
                unmatched.add(sa.target() + " " + where + " capacity only in A");
            } else if (!sa.slo().equals(sb.slo())) {
                unmatched.add(sa.target() + " " + where + " capacity: A searched for " + sa.slo() + ", B for " + sb.slo());
            } else {
                add(sa.target(), where, Metric.CAPACITY, (double) sa.capacityRps(), (double) sb.capacityRps(), thresholds, "");
            }
        }
    }

    /** The medians over repeated searches (capacity_summary); one search per target is its own median, compared above. */
    private void medians(List<CapacityMedian> a, List<CapacityMedian> b, List<Threshold> thresholds) {
        if (a.stream().allMatch(s -> s.n() < 2) && b.stream().allMatch(s -> s.n() < 2)) {
            return;
        }
        for (CapacityMedian sa : a) {
            String where = sa.scenario() + " median";
            CapacityMedian sb = b.stream().filter(s -> s.target().equals(sa.target()) && s.scenario().equals(sa.scenario())).findFirst().orElse(null);
            if (sb == null) {
                unmatched.add(sa.target() + " " + where + " capacity only in A");
            } else if (!sa.slo().equals(sb.slo())) {
                unmatched.add(sa.target() + " " + where + " capacity: A searched for " + sa.slo() + ", B for " + sb.slo());
            } else {
                add(sa.target(), where, Metric.CAPACITY, sa.medianRps(), sb.medianRps(), thresholds, "");
            }
        }
    }

    private static <T> List<T> list(List<T> section) {
        return section == null ? List.of() : section;
    }

    private void add(String target, String where, Metric m, Double va, Double vb, List<Threshold> thresholds, String unsteady) {
        Double change = va == null || vb == null ? null : va == 0 ? (vb == 0 ? 0.0 : null) : 100.0 * (vb - va) / va;
        List<Threshold> breached = new ArrayList<>();
        for (Threshold t : thresholds) {
            boolean newErrors = va != null && vb != null && va == 0 && vb > 0;
            if (t.metric() == m && ((change != null && t.breachedBy(change)) || (change == null && newErrors && t.percent() >= 0))) {
                breached.add(t);
            }
        }
        rows.add(new MetricChange(target, where, m, va, vb, change, breached, unsteady));
    }

    List<MetricChange> rows() {
        return rows;
    }

    public List<String> unmatched() {
        return unmatched;
    }

    public boolean regressed() {
        return rows.stream().anyMatch(MetricChange::regression);
    }

    /** Thresholds crossed only where a result was not steady: reported, never counted. */
    public long uncountedBreaches() {
        return rows.stream().filter(r -> !r.breached().isEmpty() && !r.unsteady().isEmpty()).count();
    }

    /** The line after the table naming the unsteady target x scenario (x repeat), or null when all were steady. */
    public String unsteadyLine() {
        return unsteadyLine;
    }

    public List<String[]> table() {
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"target", "scenario", "metric", "A", "B", "change", "verdict"});
        for (MetricChange r : rows) {
            out.add(new String[] {r.target(), r.scenario(), r.metric().id() + (r.metric().unit().isEmpty() ? "" : " (" + r.metric().unit() + ")"),
                    fmt(r.a()), fmt(r.b()), r.changePercent() == null ? (r.a() != null && r.a() == 0 && r.b() != null && r.b() > 0 ? "new" : "-")
                    : String.format(Locale.ROOT, "%+.1f%%", r.changePercent()),
                    !r.unsteady().isEmpty() ? "not steady (" + r.unsteady() + ")"
                    : r.breached().isEmpty() ? "" : "REGRESSION (" + r.breached().get(0) + ")"});
        }
        return out;
    }

    static String fmt(Double v) {
        if (v == null) {
            return "-";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e12 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
