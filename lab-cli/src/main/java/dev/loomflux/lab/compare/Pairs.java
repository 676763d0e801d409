package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of two runs matched by target, scenario, sweep cell, repeat and, for capacity steps, offered rate.
 * Matching on target x scenario alone kept only the last repeat or step of each, so a change in any
 * other went unseen. Repeats are paired by number: explicit, and the runner interleaves them the same
 * way in both runs. Capacity steps are paired by the rate they offered, not by number: two searches
 * that part ways after their first miss try different rates at the same step number, and comparing
 * those would call a lower offered rate a drop in throughput.
 */
final class Pairs {
    record Pair(String target, String scenario, String label, Result a, Result b) {
        /** The scenario with "r2" / "at 2000 rps" when the run has more than one result per target x scenario. */
        String where() {
            return label.isEmpty() ? scenario : scenario + " " + label;
        }

        /** "" when both results are steady, else "A", "B" or "A, B". */
        String unsteady() {
            boolean a = !this.a.steady();
            boolean b = !this.b.steady();
            return a && b ? "A, B" : a ? "A" : b ? "B" : "";
        }
    }

    private final List<Pair> matched = new ArrayList<>();
    private final List<String> unmatched = new ArrayList<>();

    static Pairs of(RunRecord runA, RunRecord runB) {
        List<Result> resultsA = ok(runA);
        List<Result> resultsB = ok(runB);
        List<Result> all = new ArrayList<>(resultsA);
        all.addAll(resultsB);
        Map<String, Result> a = index(resultsA);
        Map<String, Result> b = index(resultsB);
        Pairs p = new Pairs();
        for (Map.Entry<String, Result> e : a.entrySet()) {
            Result ra = e.getValue();
            Result rb = b.get(e.getKey());
            Pair pair = new Pair(ra.target(), ra.scenario(), label(ra, all), ra, rb);
            if (rb == null) {
                p.unmatched.add(pair.target() + " " + pair.where() + " only in A");
            } else {
                p.matched.add(pair);
            }
        }
        b.forEach((k, rb) -> {
            if (!a.containsKey(k)) {
                p.unmatched.add(rb.target() + " " + new Pair(rb.target(), rb.scenario(), label(rb, all), null, rb).where() + " only in B");
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

    static List<Result> ok(RunRecord run) {
        return run.results().stream().filter(Result::ok).toList();
    }

    private static Map<String, Result> index(List<Result> results) {
        Map<String, Result> m = new LinkedHashMap<>();
        // A rate measured twice in one search (a miss measured again) is represented by its last measurement, which counted.
        results.forEach(r -> m.put(r.target() + "\n" + r.scenario() + "\n" + r.key().cell() + "\n" + r.jvm() + "\n" + r.slo().offeredRps(), r));
        return m;
    }

    /** Single runs stay unlabelled, so their tables read as before. */
    private static String label(Result r, List<Result> all) {
        boolean repeated = all.stream().anyMatch(o -> o.target().equals(r.target()) && o.scenario().equals(r.scenario()) && o.jvm() > 1);
        String step = r.key().step() == null ? "" : "at " + r.slo().offeredRps() + " rps";
        String cell = r.cellLabel();
        String rep = repeated ? (r.key().set() != null ? "s" : "r") + r.jvm() : "";
        return String.join(" ", java.util.stream.Stream.of(step, cell, rep).filter(x -> !x.isEmpty()).toList());
    }
}
