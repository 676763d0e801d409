package dev.loomflux.lab.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One entry of results.json's {@code comparisons}: two targets on one metric of one scenario, from
 * their per-round ratios (docs/statistics.md, docs/results-schema.md). Its parts are a Java grouping only: results.json has
 * their fields flat, in the comparison.
 *
 * @param cell a sweep's cell; absent outside a sweep
 * @param part the flow compared, or one of whose steps is (docs/statistics.md, "Flows and their steps"), with the step's request
 *             as it reads ({@code POST /items}); all absent for a scenario that is not a flow and for a mix's requests together
 */
public record PairComparison(String scenario, Map<String, Integer> cell, @JsonUnwrapped ScenarioPart part, String metric, String a, String b,
                             @JsonUnwrapped RatioEstimate estimate, @JsonUnwrapped Judgement judgement, @JsonUnwrapped AtLook look) {
    public static final String A = "a";
    public static final String B = "b";
    public static final String EQUIVALENT = "equivalent";
    public static final String UNDECIDED = "undecided";

    public PairComparison {
        cell = cell == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(cell));
        part = part == null ? ScenarioPart.WHOLE : part;
        look = look == null ? AtLook.FIXED : look;
    }

    /**
     * @param ratio  a / b, the Hodges-Lehmann estimate over rounds; absent when no round could be compared
     * @param ci     [low, high], the 95% interval of a / b; empty when no round could be compared
     * @param rounds rounds with both figures, over every set of JVMs
     * @param compilingRounds rounds in which a block of a or b was left out because the target JVMs' JIT compiler threads took
     *               more than the limit of a CPU over its window (docs/statistics.md, "A JIT still compiling in the rounds");
     *               absent where none was
     */
    public record RatioEstimate(Double ratio, List<Double> ci, int rounds, Integer compilingRounds) {
        public RatioEstimate {
            ci = List.copyOf(ci);
        }

        public RatioEstimate(Double ratio, List<Double> ci, int rounds) {
            this(ratio, ci, rounds, null);
        }
    }

    /**
     * @param outcome        "a" or "b" (that one is better by more than the minimum effect), "equivalent" (within it either
     *                       way) or "undecided"
     * @param roundsToSettle for an undecided one, the rounds likely to settle it at the same spread; absent otherwise
     * @param note           why there is no winner although the interval would give one (drift, sets that disagree); absent otherwise
     */
    public record Judgement(String outcome, Integer roundsToSettle, String note) {
    }

    /**
     * Where rounds that stop at looks stopped (docs/statistics.md, "Stopping when the answer is known"); both absent for fixed rounds.
     *
     * @param level     the interval's two-sided level at the look the rounds stopped at (what the looks before left of 5%);
     *                  absent: 5%
     * @param reachedAt the look (measured rounds) from which the outcome held at every later look; absent when undecided
     */
    public record AtLook(Double level, Integer reachedAt) {
        public static final AtLook FIXED = new AtLook(null, null);
    }

    /** Its outcome: {@link #A}, {@link #B}, {@link #EQUIVALENT} or {@link #UNDECIDED}. */
    public String outcome() {
        return judgement.outcome();
    }

    /** "json", or in a sweep "json users=50" (the console's "paired json users=50: ..."); a flow's step "crud/create". */
    public String where() {
        return BlockRecord.where(part().where(scenario), cell);
    }

    /** Whether it compares the scenario as a whole (a single flow is its scenario), not a mix's flow or a step. */
    public boolean wholeScenario() {
        return part().standsForScenario(scenario);
    }

    /** The same without its note, as a line that gives the note below it says it. */
    public PairComparison withoutNote() {
        return new PairComparison(scenario, cell, part, metric, a, b, estimate, new Judgement(judgement.outcome(), judgement.roundsToSettle(), null), look);
    }

    /** The same at a look's level ({@code level}), its outcome held from {@code reachedAt}'s look on (null: undecided). */
    public PairComparison sequential(double level, Integer reachedAt) {
        return new PairComparison(scenario, cell, part, metric, a, b, estimate, judgement, new AtLook(level, reachedAt));
    }

    /** The comparison's identity across looks: where, what and which pair. */
    public String key() {
        return where() + "|" + metric + "|" + a + "|" + b;
    }

    public Metric metricKind() {
        return Metric.byId(metric);
    }

    /**
     * In words, better side first: "mvc ahead of webflux on throughput by 23.4% (95% CI 18.0-29.1%)",
     * "mvc and mvc-vt equivalent on p99 within 5%", "median latency undecided between mvc and webflux (...)"; a step's
     * metric after its request, "mvc-vt ahead of mvc on POST /items p99: ...", a flow's after its name, "on crud flow throughput".
     */
    public String sentence() {
        Metric m = metricKind();
        String subject = part().subject();
        String words = (subject == null ? "" : subject + " ") + (m == null ? metric : m.words());
        String outcome = outcome();
        Double ratio = estimate.ratio();
        List<Double> ci = estimate.ci();
        boolean aBetter = A.equals(outcome);
        return switch (outcome) {
            case A, B -> {
                String winner = aBetter ? a : b;
                String loser = aBetter ? b : a;
                // The winner's lead in the metric's better direction: a/b for throughput when a wins, b/a for a latency when a wins.
                boolean higher = m == null || m.higherIsBetter();
                double r = aBetter == higher ? ratio : 1 / ratio;
                double lo = aBetter == higher ? ci.get(0) : 1 / ci.get(1);
                double hi = aBetter == higher ? ci.get(1) : 1 / ci.get(0);
                yield higher ? winner + " ahead of " + loser + " on " + words + " by " + pct(r - 1) + " (95% CI " + pct(lo - 1) + " to " + pct(hi - 1) + from() + ")"
                        : winner + " ahead of " + loser + " on " + words + ": " + pct(1 - 1 / r) + " lower (95% CI " + pct(1 - 1 / lo) + " to "
                        + pct(1 - 1 / hi) + from() + ")";
            }
            case EQUIVALENT -> a + " and " + b + " equivalent on " + words + " within 5% (" + a + "/" + b + " " + ratioText() + from() + ")";
            default -> words + " undecided between " + a + " and " + b + " (" + a + "/" + b + " " + ratioText() + ")"
                    + (judgement.note() != null ? ": " + judgement.note()
                    : judgement.roundsToSettle() != null ? "; about " + judgement.roundsToSettle() + " rounds would likely settle it" : "");
        };
    }

    /** "; from round 15": where a sequential run's outcome was reached. */
    private String from() {
        return look.reachedAt() == null ? "" : "; from round " + look.reachedAt();
    }

    private String ratioText() {
        RatioEstimate e = estimate;
        if (e.ratio() == null) {
            return "no round compared";
        }
        return String.format(Locale.ROOT, "%.3f, 95%% CI %.3f-%.3f, %d rounds", e.ratio(), e.ci().get(0), e.ci().get(1), e.rounds());
    }

    private static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }
}
