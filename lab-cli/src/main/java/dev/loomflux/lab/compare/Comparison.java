package dev.loomflux.lab.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Each metric's change from run A to run B, per target x scenario present in both. */
final class Comparison {
    record Row(String target, String scenario, Metric metric, Double a, Double b, Double changePercent, List<Threshold> breached) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> unmatched = new ArrayList<>();

    @SuppressWarnings("unchecked")
    static Comparison of(Map<String, Object> runA, Map<String, Object> runB, List<Threshold> thresholds) {
        Comparison c = new Comparison();
        Map<String, Map<String, Object>> a = index((List<Map<String, Object>>) runA.get("results"));
        Map<String, Map<String, Object>> b = index((List<Map<String, Object>>) runB.get("results"));
        for (Map.Entry<String, Map<String, Object>> e : a.entrySet()) {
            Map<String, Object> rb = b.get(e.getKey());
            if (rb == null) {
                c.unmatched.add(e.getKey() + " only in A");
                continue;
            }
            Map<String, Object> ra = e.getValue();
            for (Metric m : Metric.values()) {
                Double va = m.read(ra);
                Double vb = m.read(rb);
                Double change = va == null || vb == null ? null : va == 0 ? (vb == 0 ? 0.0 : null) : 100.0 * (vb - va) / va;
                List<Threshold> breached = new ArrayList<>();
                for (Threshold t : thresholds) {
                    boolean newErrors = va != null && vb != null && va == 0 && vb > 0;
                    if (t.metric() == m && ((change != null && t.breachedBy(change)) || (change == null && newErrors && t.percent() >= 0))) {
                        breached.add(t);
                    }
                }
                c.rows.add(new Row((String) ra.get("target"), (String) ra.get("scenario"), m, va, vb, change, breached));
            }
        }
        b.keySet().stream().filter(k -> !a.containsKey(k)).forEach(k -> c.unmatched.add(k + " only in B"));
        return c;
    }

    private static Map<String, Map<String, Object>> index(List<Map<String, Object>> results) {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        for (Map<String, Object> r : results) {
            if ("ok".equals(r.get("status"))) {
                m.put(r.get("target") + " " + r.get("scenario"), r);
            }
        }
        return m;
    }

    List<Row> rows() {
        return rows;
    }

    List<String> unmatched() {
        return unmatched;
    }

    boolean regressed() {
        return rows.stream().anyMatch(r -> !r.breached().isEmpty());
    }

    List<String[]> table() {
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"target", "scenario", "metric", "A", "B", "change", "verdict"});
        for (Row r : rows) {
            out.add(new String[] {r.target(), r.scenario(), r.metric().id() + (r.metric().unit().isEmpty() ? "" : " (" + r.metric().unit() + ")"),
                    fmt(r.a()), fmt(r.b()), r.changePercent() == null ? (r.a() != null && r.a() == 0 && r.b() != null && r.b() > 0 ? "new" : "-")
                    : String.format(Locale.ROOT, "%+.1f%%", r.changePercent()),
                    r.breached().isEmpty() ? "" : "REGRESSION (" + r.breached().get(0) + ")"});
        }
        return out;
    }

    private static String fmt(Double v) {
        if (v == null) {
            return "-";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e12 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
