package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.RepeatSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of two runs matched by target, scenario, repeat and, for capacity steps, offered rate.
 * Matching on target x scenario alone kept only the last repeat or step of each, so a change in any
 * other went unseen. Repeats are paired by number: explicit, and the runner interleaves them the same
 * way in both runs. Capacity steps are paired by the rate they offered, not by number: two searches
 * that part ways after their first miss try different rates at the same step number, and comparing
 * those would call a lower offered rate a drop in throughput.
 */
final class Pairs {
    record Pair(String target, String scenario, String label, Map<String, Object> a, Map<String, Object> b) {
        /** The scenario with "r2" / "step3" when the run has more than one result per target x scenario. */
        String where() {
            return label.isEmpty() ? scenario : scenario + " " + label;
        }

        /** "" when both results are steady, else "A", "B" or "A, B". */
        String unsteady() {
            boolean a = !RepeatSummary.steady(this.a);
            boolean b = !RepeatSummary.steady(this.b);
            return a && b ? "A, B" : a ? "A" : b ? "B" : "";
        }
    }

    private final List<Pair> matched = new ArrayList<>();
    private final List<String> unmatched = new ArrayList<>();

    @SuppressWarnings("unchecked")
    static Pairs of(Map<String, Object> runA, Map<String, Object> runB) {
        List<Map<String, Object>> resultsA = ok((List<Map<String, Object>>) runA.get("results"));
        List<Map<String, Object>> resultsB = ok((List<Map<String, Object>>) runB.get("results"));
        List<Map<String, Object>> all = new ArrayList<>(resultsA);
        all.addAll(resultsB);
        Map<String, Map<String, Object>> a = index(resultsA);
        Map<String, Map<String, Object>> b = index(resultsB);
        Pairs p = new Pairs();
        for (Map.Entry<String, Map<String, Object>> e : a.entrySet()) {
            Map<String, Object> ra = e.getValue();
            Map<String, Object> rb = b.get(e.getKey());
            Pair pair = new Pair((String) ra.get("target"), (String) ra.get("scenario"), label(ra, all), ra, rb);
            if (rb == null) {
                p.unmatched.add(pair.target() + " " + pair.where() + " only in A");
            } else {
                p.matched.add(pair);
            }
        }
        b.forEach((k, rb) -> {
            if (!a.containsKey(k)) {
                Pair only = new Pair((String) rb.get("target"), (String) rb.get("scenario"), label(rb, all), null, rb);
                p.unmatched.add(only.target() + " " + only.where() + " only in B");
            }
        });
        return p;
    }

    List<Pair> matched() {
        return matched;
    }

    List<String> unmatched() {
        return unmatched;
    }

    /** Names the pairs with an unsteady result, or null when every result was steady. */
    String unsteadyLine(String consequence) {
        List<String> names = matched.stream().filter(p -> !p.unsteady().isEmpty())
                .map(p -> p.target() + " " + p.where() + " (" + p.unsteady() + ")").toList();
        return names.isEmpty() ? null : "not steady: " + String.join(", ", names) + "; " + consequence + ": re-run with a longer --warmup";
    }

    static List<Map<String, Object>> ok(List<Map<String, Object>> results) {
        return results.stream().filter(r -> "ok".equals(r.get("status"))).toList();
    }

    private static Map<String, Map<String, Object>> index(List<Map<String, Object>> results) {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        // A rate measured twice in one search (a miss measured again) is represented by its last measurement, which counted.
        results.forEach(r -> m.put(r.get("target") + "\n" + r.get("scenario") + "\n" + repeat(r) + "\n" + rate(r), r));
        return m;
    }

    /** Single runs stay unlabelled, so their tables read as before. */
    private static String label(Map<String, Object> r, List<Map<String, Object>> all) {
        boolean repeated = all.stream().anyMatch(o -> o.get("target").equals(r.get("target")) && o.get("scenario").equals(r.get("scenario")) && repeat(o) > 1);
        String step = r.get("step") == null ? "" : "at " + rate(r) + " rps";
        String rep = repeated ? "r" + repeat(r) : "";
        return (step + " " + rep).trim();
    }

    /** A capacity step's offered rate, or null for a result that is no step. */
    private static Object rate(Map<String, Object> r) {
        return r.get("step") == null ? null : r.get("offered_rps") instanceof Number n ? Math.round(n.doubleValue()) : r.get("offered_rps");
    }

    /** Results from before --repeat have no "repeat": they were the first and only one. */
    private static int repeat(Map<String, Object> r) {
        return r.get("repeat") instanceof Number n ? n.intValue() : 1;
    }
}
