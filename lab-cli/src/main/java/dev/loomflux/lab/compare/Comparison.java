package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.Metric;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Each metric's change from run A to run B, per target x scenario (x repeat, x step) present in both. */
public final class Comparison {
    /** @param unsteady "" or which side's result was not steady ("A", "B", "A, B"): its breaches are no regression */
    record Row(String target, String scenario, Metric metric, Double a, Double b, Double changePercent, List<Threshold> breached,
               String unsteady) {
        boolean regression() {
            return !breached.isEmpty() && unsteady.isEmpty();
        }
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> unmatched = new ArrayList<>();
    private String unsteadyLine;

    public static Comparison of(Map<String, Object> runA, Map<String, Object> runB, List<Threshold> thresholds) {
        Comparison c = new Comparison();
        Pairs pairs = Pairs.of(runA, runB);
        c.unmatched.addAll(pairs.unmatched());
        c.unsteadyLine = pairs.unsteadyLine("their changes count as no regression");
        for (Pairs.Pair p : pairs.matched()) {
            String unsteady = p.unsteady();
            for (Metric m : Metric.OF_RESULT) {
                c.add(p.target(), p.where(), m, p.a(), p.b(), thresholds, unsteady);
            }
        }
        c.capacity(runA, runB, "capacity", thresholds);
        c.capacity(runA, runB, "capacity_summary", thresholds);
        return c;
    }

    /**
     * Capacity searches (./lab capacity) by target x scenario x repeat, and their medians over
     * repeats: the knee each run found. Searches under different SLOs found different things.
     */
    @SuppressWarnings("unchecked")
    private void capacity(Map<String, Object> runA, Map<String, Object> runB, String section, List<Threshold> thresholds) {
        List<Map<String, Object>> a = runA.get(section) instanceof List ? (List<Map<String, Object>>) runA.get(section) : List.of();
        List<Map<String, Object>> b = runB.get(section) instanceof List ? (List<Map<String, Object>>) runB.get(section) : List.of();
        boolean summary = section.equals("capacity_summary");
        if (summary && a.stream().allMatch(s -> number(s.get("n")) < 2) && b.stream().allMatch(s -> number(s.get("n")) < 2)) {
            return; // one search per target: its median is that search, already compared
        }
        boolean repeated = !summary && (a.stream().anyMatch(s -> number(s.get("repeat")) > 1) || b.stream().anyMatch(s -> number(s.get("repeat")) > 1));
        for (Map<String, Object> sa : a) {
            String where = sa.get("scenario") + (summary ? " median" : repeated ? " r" + number(sa.get("repeat")) : "");
            Map<String, Object> sb = b.stream().filter(s -> s.get("target").equals(sa.get("target")) && s.get("scenario").equals(sa.get("scenario"))
                    && (summary || number(s.get("repeat")) == number(sa.get("repeat")))).findFirst().orElse(null);
            if (sb == null) {
                unmatched.add(sa.get("target") + " " + where + " capacity only in A");
            } else if (!String.valueOf(sa.get("slo")).equals(String.valueOf(sb.get("slo")))) {
                unmatched.add(sa.get("target") + " " + where + " capacity: A searched for " + sa.get("slo") + ", B for " + sb.get("slo"));
            } else {
                add((String) sa.get("target"), where, Metric.CAPACITY, summary ? median(sa) : sa, summary ? median(sb) : sb, thresholds, "");
            }
        }
    }

    /** A capacity_summary entry as the search it summarizes: its median is the capacity compared. */
    private static Map<String, Object> median(Map<String, Object> summary) {
        Map<String, Object> m = new java.util.HashMap<>();
        m.put("capacity_rps", summary.get("median_rps"));
        return m;
    }

    private static long number(Object o) {
        return o instanceof Number n ? n.longValue() : 1;
    }

    private void add(String target, String where, Metric m, Map<String, Object> a, Map<String, Object> b, List<Threshold> thresholds, String unsteady) {
        Double va = m.read(a);
        Double vb = m.read(b);
        Double change = va == null || vb == null ? null : va == 0 ? (vb == 0 ? 0.0 : null) : 100.0 * (vb - va) / va;
        List<Threshold> breached = new ArrayList<>();
        for (Threshold t : thresholds) {
            boolean newErrors = va != null && vb != null && va == 0 && vb > 0;
            if (t.metric() == m && ((change != null && t.breachedBy(change)) || (change == null && newErrors && t.percent() >= 0))) {
                breached.add(t);
            }
        }
        rows.add(new Row(target, where, m, va, vb, change, breached, unsteady));
    }

    List<Row> rows() {
        return rows;
    }

    public List<String> unmatched() {
        return unmatched;
    }

    public boolean regressed() {
        return rows.stream().anyMatch(Row::regression);
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
        for (Row r : rows) {
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
