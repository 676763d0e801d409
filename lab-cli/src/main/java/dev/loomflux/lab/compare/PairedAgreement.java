package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.RunRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How far several runs of one paired experiment agree (bench/reproduce.sh): per scenario, metric and
 * pair, each run's ratio a/b and outcome, how far the ratios spread around their median, and whether
 * a winner in one run is the loser in another. The goals (docs/reproducibility.md): throughput ratios
 * within +-5%, p50 within +-10%, no flip, and every pair 15% or more apart decided in every run.
 */
public final class PairedAgreement {
    static final double THROUGHPUT_GOAL_PCT = 5;
    static final double P50_GOAL_PCT = 10;
    static final double DECISIVE = 0.15;

    private record AcrossRuns(String scenario, String metric, String a, String b, PairComparison[] runs, double[] ratios, String[] outcomes) {
        double spreadPct() {
            double[] s = ratios.clone();
            Arrays.sort(s);
            double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
            return Math.max(Math.abs(s[0] / median - 1), Math.abs(s[s.length - 1] / median - 1)) * 100;
        }

        boolean flips() {
            return Arrays.asList(outcomes).contains(PairComparison.A) && Arrays.asList(outcomes).contains(PairComparison.B);
        }

        boolean decisive() {
            return Arrays.stream(ratios).allMatch(r -> Math.abs(r - 1) >= DECISIVE || Math.abs(1 / r - 1) >= DECISIVE);
        }

        boolean decidedEveryRun() {
            return Arrays.stream(outcomes).allMatch(o -> o.equals(PairComparison.A) || o.equals(PairComparison.B));
        }
    }

    private final List<AcrossRuns> rows = new ArrayList<>();
    private final int runs;

    private PairedAgreement(int runs) {
        this.runs = runs;
    }

    /** Null unless every run has comparisons. */
    public static PairedAgreement of(List<RunRecord> records) {
        if (records.stream().anyMatch(r -> r.paired().comparisons() == null || r.paired().comparisons().isEmpty())) {
            return null;
        }
        PairedAgreement out = new PairedAgreement(records.size());
        Map<String, PairComparison[]> byKey = new LinkedHashMap<>();
        for (int i = 0; i < records.size(); i++) {
            for (PairComparison c : records.get(i).paired().comparisons()) {
                byKey.computeIfAbsent(c.where() + "|" + c.metric() + "|" + c.a() + "|" + c.b(), k -> new PairComparison[records.size()])[i] = c;
            }
        }
        byKey.values().stream().filter(cs -> Arrays.stream(cs).allMatch(c -> c != null && c.estimate().ratio() != null)).forEach(cs -> out.rows.add(
                new AcrossRuns(cs[0].where(), cs[0].metric(), cs[0].a(), cs[0].b(), cs, Arrays.stream(cs).mapToDouble(x -> x.estimate().ratio()).toArray(),
                        Arrays.stream(cs).map(PairComparison::outcome).toArray(String[]::new))));
        return out;
    }

    public List<String[]> table() {
        List<String[]> out = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("scenario", "metric", "pair a/b"));
        for (int i = 1; i <= runs; i++) {
            header.add("run " + i);
        }
        header.addAll(List.of("spread", "outcomes", "goal"));
        out.add(header.toArray(String[]::new));
        for (AcrossRuns r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.scenario(), r.metric(), r.a() + "/" + r.b()));
            Arrays.stream(r.ratios()).forEach(x -> cells.add(String.format(Locale.ROOT, "%.3f", x)));
            cells.add(String.format(Locale.ROOT, "+-%.1f%%", r.spreadPct()));
            cells.add(String.join(" ", r.outcomes()));
            cells.add(goal(r));
            out.add(cells.toArray(String[]::new));
        }
        return out;
    }

    /**
     * Two runs (./lab compare A B): each pair's ratio, interval and outcome in A and in B, and whether
     * the verdict changed. The ratios are what moves with the code or the configuration compared; the
     * machine's speed, which moves both targets of a round together, mostly cancels in them.
     */
    public List<String[]> changesTable() {
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"scenario", "metric", "pair a/b", "A", "B", "B/A", "verdict"});
        for (AcrossRuns r : rows) {
            PairComparison first = r.runs()[0];
            PairComparison last = r.runs()[r.runs().length - 1];
            out.add(new String[] {r.scenario(), r.metric(), r.a() + "/" + r.b(), cell(first), cell(last),
                    String.format(Locale.ROOT, "%+.1f%%", (last.estimate().ratio() / first.estimate().ratio() - 1) * 100),
                    first.outcome().equals(last.outcome()) ? "same" : r.flips() ? "FLIPPED" : "changed"});
        }
        return out;
    }

    private static String cell(PairComparison c) {
        return String.format(Locale.ROOT, "%.3f (%.3f-%.3f) %s", c.estimate().ratio(), c.estimate().ci().get(0), c.estimate().ci().get(1), c.outcome());
    }

    /** Pairs whose verdict differs between the first run and the last. */
    public long changed() {
        return rows.stream().filter(r -> !r.outcomes()[0].equals(r.outcomes()[r.outcomes().length - 1])).count();
    }

    private static String goal(AcrossRuns r) {
        List<String> missed = new ArrayList<>();
        double limit = r.metric().equals(Metric.THROUGHPUT.id()) ? THROUGHPUT_GOAL_PCT : r.metric().equals(Metric.P50.id()) ? P50_GOAL_PCT : -1;
        if (limit > 0 && r.spreadPct() > limit) {
            missed.add("spread over " + (int) limit + "%");
        }
        if (r.flips()) {
            missed.add("FLIP");
        }
        if (r.decisive() && !r.decidedEveryRun()) {
            missed.add("15%+ apart but undecided in a run");
        }
        return missed.isEmpty() ? "ok" : String.join(", ", missed);
    }

    public String summary() {
        List<AcrossRuns> t = rows.stream().filter(r -> r.metric().equals(Metric.THROUGHPUT.id())).toList();
        List<AcrossRuns> p = rows.stream().filter(r -> r.metric().equals(Metric.P50.id())).toList();
        long decisive = rows.stream().filter(AcrossRuns::decisive).count();
        return String.format(Locale.ROOT, "%d runs: throughput ratios within +-%.0f%%: %d of %d (widest +-%.1f%%); p50 within +-%.0f%%: %d of %d; "
                        + "flips: %d; pairs 15%%+ apart decided in every run: %d of %d; outcomes that differ between runs: %d of %d",
                runs, THROUGHPUT_GOAL_PCT, t.stream().filter(r -> r.spreadPct() <= THROUGHPUT_GOAL_PCT).count(), t.size(),
                t.stream().mapToDouble(AcrossRuns::spreadPct).max().orElse(0), P50_GOAL_PCT, p.stream().filter(r -> r.spreadPct() <= P50_GOAL_PCT).count(),
                p.size(), rows.stream().filter(AcrossRuns::flips).count(), rows.stream().filter(r -> r.decisive() && r.decidedEveryRun()).count(), decisive,
                rows.stream().filter(r -> Arrays.stream(r.outcomes()).distinct().count() > 1).count(), rows.size());
    }
}
