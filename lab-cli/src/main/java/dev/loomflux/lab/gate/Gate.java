package dev.loomflux.lab.gate;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.StepResult;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.verdict.Comparisons;
import dev.loomflux.lab.verdict.Timing;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A regression gate's answer from one paired run of two builds, base and head (docs/ci.md): per metric and part of a scenario,
 * head against base with its ratio and interval, the intervals holding 95% together ({@link #held}), a regression when the
 * whole interval lies beyond the margin on the worse side; the base against itself across its two sets of JVMs (the A/A check,
 * in the same rounds); and where the two builds answered with different statuses, a behaviour change before any verdict.
 *
 * @param checks    head against base, per comparison the paired design draws
 * @param aa        the base's first set against its second, on the same metrics
 * @param behaviour where the builds' statuses differ, in words; empty when they agree
 */
public record Gate(String base, String head, double marginPct, List<Check> checks, List<Check> aa, List<String> behaviour) {
    public enum Outcome { REGRESSION, IMPROVEMENT, EQUIVALENT, UNDECIDED }

    /** Exit codes CI acts on (docs/ci.md). */
    public static final int PASS = 0;
    public static final int FAIL = 1;
    public static final int UNDECIDED = 3;

    /** The base's two sets as the A/A check names them. */
    public static final String FIRST = "#1";
    public static final String SECOND = "#2";

    /** A status share above this, where the other build's lies under a tenth of it, is a behaviour change. */
    static final double STATUS_SHARE = 0.01;

    public Gate {
        checks = List.copyOf(checks);
        aa = List.copyOf(aa);
        behaviour = List.copyOf(behaviour);
    }

    /**
     * One metric of one part: head over base (for the A/A, the base's second set over its first), its 95% interval, and what
     * that says at the margin.
     *
     * @param note why no regression or improvement is named although the interval would (drift, sets that disagree); else null
     */
    public record Check(String where, String metric, Double ratio, Double low, Double high, int rounds, Outcome outcome, String note) {
        /** "json throughput: head/base 0.812 (simultaneous 95% CI 0.790-0.833) over 15 rounds: regression" */
        public String describe(String of) {
            return String.format(Locale.ROOT, "%s %s: %s %s over %d rounds: %s%s", where, metric, of,
                    ratio == null ? "no ratio" : String.format(Locale.ROOT, "%.3f (simultaneous 95%% CI %.3f-%.3f)", ratio, low, high), rounds,
                    outcome.name().toLowerCase(Locale.ROOT), note == null ? "" : " (" + note + ")");
        }
    }

    /**
     * The gate over a paired run whose targets are {@code base} and {@code head}, in two or more sets.
     *
     * @param timing how the run's driver timed requests, as its comparisons took it
     */
    public static Gate of(RunRecord run, String base, String head, double marginPct, Timing timing) {
        Map<String, Double> levels = new HashMap<>();
        (run.paired().stops() == null ? List.<RoundsStop>of() : run.paired().stops()).forEach(st -> levels.put(st.where(), st.level()));
        List<BlockRecord> blocks = run.paired().blocks() == null ? List.of() : run.paired().blocks();
        return new Gate(base, head, marginPct, held(blocks, base, head, timing, levels, marginPct), aa(blocks, base, timing, levels, marginPct),
                behaviour(run.results(), base, head));
    }

    /**
     * Head against base on every comparison the paired design draws between them, held together: with k comparisons each
     * interval is drawn at 1/k of its scenario's level (Bonferroni), so that all k cover the truth together at the run's level
     * and a head 2% slower is not a regression on whichever of many metrics and steps strays furthest (docs/ci.md, "How often
     * it is wrong").
     *
     * @param levels per scenario, the level its rounds stopped at ({@link dev.loomflux.lab.verdict.Stopping}); 5% where absent
     */
    public static List<Check> held(List<BlockRecord> blocks, String base, String head, Timing timing, Map<String, Double> levels, double marginPct) {
        List<String> pair = List.of(base, head);
        long k = whole(Comparisons.of(blocks, pair, timing, levels)).count();
        Map<String, Double> each = new HashMap<>();
        blocks.stream().map(BlockRecord::where).distinct().forEach(w -> each.put(w, levels.getOrDefault(w, Stats.ALPHA) / Math.max(1, k)));
        return whole(Comparisons.of(blocks, pair, timing, each)).map(c -> check(c, marginPct)).toList();
    }

    /** The comparisons of whole scenarios: a sweep's cells are the design's, not a gate's. */
    private static Stream<PairComparison> whole(List<PairComparison> comparisons) {
        return comparisons.stream().filter(c -> c.cell() == null);
    }

    /**
     * The A/A check: the base's first set of JVMs against its second, as two targets in the same rounds, held together and
     * checked as head against base is (a = the first set).
     */
    public static List<Check> aa(List<BlockRecord> blocks, String base, Timing timing, Map<String, Double> levels, double marginPct) {
        List<BlockRecord> twoBases = new ArrayList<>();
        for (BlockRecord b : blocks) {
            if (b.target().equals(base) && b.turn().set() <= 2) {
                twoBases.add(b.as(base + (b.turn().set() == 1 ? FIRST : SECOND), 1));
            }
        }
        return held(twoBases, base + FIRST, base + SECOND, timing, levels, marginPct);
    }

    /** One comparison of the paired design with a = base and b = head, checked at the margin: head over base is its ratio inverted. */
    public static Check check(PairComparison c, double marginPct) {
        Metric m = c.metricKind();
        Double ratio = c.estimate().ratio() == null ? null : 1 / c.estimate().ratio();
        Double low = c.estimate().ci().isEmpty() ? null : 1 / c.estimate().ci().get(1);
        Double high = c.estimate().ci().isEmpty() ? null : 1 / c.estimate().ci().get(0);
        double margin = 1 + marginPct / 100;
        Outcome o;
        if (low == null) {
            o = Outcome.UNDECIDED;
        } else if (low >= 1 / margin && high <= margin) {
            o = Outcome.EQUIVALENT;
        } else if (high < 1 / margin || low > margin) {
            boolean headHigher = low > margin;
            o = headHigher == (m == null || m.higherIsBetter()) ? Outcome.IMPROVEMENT : Outcome.REGRESSION;
        } else {
            o = Outcome.UNDECIDED;
        }
        String note = c.judgement().note();
        if (note != null && (o == Outcome.REGRESSION || o == Outcome.IMPROVEMENT)) {
            o = Outcome.UNDECIDED;
        }
        return new Check(c.where(), m == null ? c.metric() : m.words(), round(ratio), round(low), round(high), c.estimate().rounds(), o, note);
    }

    /**
     * Where the builds answered differently: per scenario, and per step of a flow, a share of requests failed on their status
     * (4xx, 5xx, or not the step's expected one) above 1% on one side and under a tenth of that on the other.
     */
    static List<String> behaviour(List<Result> results, String base, String head) {
        Map<String, long[]> byWhere = new LinkedHashMap<>(); // where -> {base failed, base requests, head failed, head requests}
        for (Result r : results) {
            boolean isBase = r.key().target().equals(base);
            if (!isBase && !r.key().target().equals(head) || r.load() == null || r.load().requests() == null || r.key().cell() != null) {
                continue;
            }
            int at = isBase ? 0 : 2;
            add(byWhere, r.key().scenario(), at, r.load().errors(), r.load().requests());
            if (r.load().flows() != null) {
                r.load().flows().forEach(f -> {
                    for (StepResult s : f.steps()) {
                        add(byWhere, r.key().scenario() + " " + f.flow() + "/" + s.step() + " (" + s.request() + ")", at, s.errors(), s.requests());
                    }
                });
            }
        }
        List<String> out = new ArrayList<>();
        byWhere.forEach((where, n) -> {
            double b = n[1] == 0 ? 0 : (double) n[0] / n[1];
            double h = n[3] == 0 ? 0 : (double) n[2] / n[3];
            if (Math.max(b, h) > STATUS_SHARE && Math.min(b, h) < Math.max(b, h) / 10) {
                out.add(String.format(Locale.ROOT, "%s: %s answered %.1f%% of its requests with a failing status, %s %.1f%%: a behaviour change, "
                        + "not a performance change", where, base, 100 * b, head, 100 * h));
            }
        });
        return out;
    }

    private static void add(Map<String, long[]> byWhere, String where, int at, Result.ErrorCounts e, long requests) {
        long[] n = byWhere.computeIfAbsent(where, k -> new long[4]);
        n[at] += e == null ? 0 : e.status4xx() + e.status5xx() + (e.unexpected() == null ? 0 : e.unexpected());
        n[at + 1] += requests;
    }

    /** Whether the base differed from itself beyond the margin: the machine cannot tell the builds apart at it. */
    public boolean noisy() {
        return aa.stream().anyMatch(c -> c.outcome() == Outcome.REGRESSION || c.outcome() == Outcome.IMPROVEMENT);
    }

    /** 1 for a regression or a behaviour change, 3 when the A/A check failed or some metric is undecided, else 0. */
    public int exitCode() {
        if (noisy()) {
            return UNDECIDED;
        }
        if (!behaviour.isEmpty() || checks.stream().anyMatch(c -> c.outcome() == Outcome.REGRESSION)) {
            return FAIL;
        }
        return checks.isEmpty() || checks.stream().anyMatch(c -> c.outcome() == Outcome.UNDECIDED) ? UNDECIDED : PASS;
    }

    /** The gate's answer in one line. */
    public String headline() {
        long regressions = checks.stream().filter(c -> c.outcome() == Outcome.REGRESSION).count();
        long undecided = checks.stream().filter(c -> c.outcome() == Outcome.UNDECIDED).count();
        String margin = String.format(Locale.ROOT, "%s%%", marginPct == Math.rint(marginPct) ? String.valueOf((long) marginPct) : String.valueOf(marginPct));
        if (noisy()) {
            Check worst = aa.stream().filter(c -> c.outcome() == Outcome.REGRESSION || c.outcome() == Outcome.IMPROVEMENT).findFirst().orElseThrow();
            return "ab: no verdict: the machine's own noise is larger than the " + margin + " margin: " + worst.describe(base + SECOND + "/" + base + FIRST);
        }
        if (!behaviour.isEmpty()) {
            return "ab: BEHAVIOUR CHANGE: " + behaviour.get(0);
        }
        if (checks.isEmpty()) {
            return "ab: no verdict: no comparison of " + head + " against " + base + " was made (the run's log says why)";
        }
        if (regressions > 0) {
            return "ab: REGRESSION in " + regressions + " of " + checks.size() + " comparisons at a " + margin + " margin";
        }
        return undecided > 0 ? "ab: no regression shown, " + undecided + " of " + checks.size() + " comparisons undecided at a " + margin + " margin"
                : "ab: no regression: every comparison within or better than a " + margin + " margin";
    }

    private static Double round(Double v) {
        return v == null ? null : Math.round(v * 1000) / 1000.0;
    }
}
