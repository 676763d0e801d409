package dev.loomflux.lab.capacity;

import dev.loomflux.lab.result.CapacityLadder;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.stats.Stats;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Each target's capacity from a ladder's paired rounds, and every pair's ratio (docs/guide.md, "Capacity in paired rounds").
 * A target holds a rung when the median of its rounds there meets the SLO; its capacity lies between its highest rung held
 * below its lowest missed and that missed rung. No curve is fitted between rungs: latency past a knee is no line, and the
 * ladder's resolution is part of the answer. The interval comes from a bootstrap that draws each rung's rounds again, the
 * same rounds for every target (the rounds are the pairing). A ratio's interval spans the brackets' ends: from a's lowest
 * held over b's highest missed to a's highest missed over b's lowest held, so two targets in one bracket are never told apart
 * by more than the rungs show, and are equivalent only when the rungs lie within 5% of each other.
 */
public final class CapacityBootstrap {
    /** Bootstrap draws: the 2.5% and 97.5% ends from 2,000 move by under a rung's share in repeated draws. */
    static final int DRAWS = 2000;
    private static final double MARGIN = 1 + Stats.MIN_EFFECT_PCT / 100;
    /** Each end's share outside the 95% interval: also the share of redraws a narrow hold misses, which puts the lower end below it. */
    private static final double TAIL = 0.025;

    /**
     * One target's block at one rung and round, as the SLO judged it: its latency at the SLO's percentile over the bound, in
     * logs (below 0 meets it); +Infinity for too many errors or arrivals the target fell behind on; NaN when the driver could
     * not offer the rate (no evidence either way). A target's blocks of several sets in one round are averaged.
     *
     * @param goodputRps the block's responses without error per second of its send window; NaN when unknown
     * @param errorPct   the block's errors in % of its requests; NaN when unknown
     */
    public record Observation(int rps, int round, String target, double severity, double goodputRps, double errorPct) {
        /** Without the block's goodput and errors (NaN). */
        public Observation(int rps, int round, String target, double severity) {
            this(rps, round, target, severity, Double.NaN, Double.NaN);
        }
    }

    private CapacityBootstrap() {
    }

    /**
     * @param targets in the order the pairs are formed (a before b)
     * @param seed    the draws' seed: the same run, the same interval
     */
    public static CapacityLadder of(String scenario, Slo slo, int rounds, List<String> targets, List<Observation> observations, Integer driverLimit, long seed) {
        TreeMap<Integer, TreeMap<Integer, Map<String, Double>>> all = grid(observations);
        TreeMap<Integer, TreeMap<Integer, Map<String, Double>>> rungs = new TreeMap<>(driverLimit == null ? all : all.headMap(driverLimit, false));
        List<Integer> rates = new ArrayList<>(rungs.keySet());
        List<CapacityLadder.Rung> shown = new ArrayList<>();
        all.forEach((rate, byRound) -> {
            List<Observation> at = observations.stream().filter(o -> o.rps() == rate).toList();
            List<CapacityLadder.AtRung> each = new ArrayList<>();
            judged(targets, byRound).forEach((t, outcome) -> {
                double[] offered = offered(byRound.values().stream().map(r -> r.get(t)).filter(Objects::nonNull).toList());
                each.add(new CapacityLadder.AtRung(t, switch (outcome) {
                    case HOLDS, HOLDS_NARROWLY -> CapacityLadder.AtRung.HOLDS;
                    case FAILS -> CapacityLadder.AtRung.MISSES;
                    case DRIVER -> CapacityLadder.AtRung.NOT_OFFERED;
                }, offered.length > 0 && Double.isFinite(median(offered)) ? round(slo.maxMs() * Math.exp(median(offered))) : null,
                        medianOf(at, t, Observation::goodputRps), medianOf(at, t, Observation::errorPct)));
            });
            shown.add(new CapacityLadder.Rung(rate, each));
        });
        Map<String, int[]> point = brackets(targets, rates, rungs, null);
        Random random = new Random(seed);
        Map<String, List<int[]>> drawn = new LinkedHashMap<>();
        targets.forEach(t -> drawn.put(t, new ArrayList<>()));
        for (int d = 0; d < DRAWS; d++) {
            Map<String, int[]> b = brackets(targets, rates, rungs, random);
            b.forEach((t, br) -> drawn.get(t).add(br));
        }
        List<CapacityLadder.Target> out = new ArrayList<>();
        for (String t : targets) {
            int[] p = point.get(t);
            double[] holds = drawn.get(t).stream().mapToDouble(br -> br[0]).sorted().toArray();
            double[] fails = drawn.get(t).stream().mapToDouble(br -> br[1] < 0 ? Double.POSITIVE_INFINITY : br[1]).sorted().toArray();
            double low = lower(holds);
            double high = upper(fails);
            out.add(new CapacityLadder.Target(t, p[0] > 0 ? p[0] : null, p[1] > 0 ? p[1] : null, low > 0 ? (int) low : null,
                    Double.isInfinite(high) ? null : (int) high, p[0] > 0 ? overload(t, p[0], shown) : List.of()));
        }
        List<CapacityLadder.Ratio> pairs = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            for (int j = i + 1; j < targets.size(); j++) {
                pairs.add(ratio(targets.get(i), targets.get(j), point, drawn));
            }
        }
        return new CapacityLadder(scenario, slo.toString(), rounds, shown, driverLimit, out, pairs, "per rung, a target holds it when the median of its rounds' "
                + "blocks meets the SLO (its sets' blocks averaged per round); its capacity lies between its highest rung held below its lowest missed and "
                + "that rung; the 95% interval and each ratio's come from " + DRAWS + " bootstrap draws of every rung's rounds, the same rounds for every "
                + "target; a ratio spans the brackets' ends; a winner when the whole interval lies beyond 5%, equivalent when within +-5%");
    }

    /** How far from 1.5x or 2x a capacity a rung may lie and still be read as there. */
    private static final double OVERLOAD_NEAR = 0.20;

    /** The target at the rungs nearest 1.5x and 2x its capacity, where one lies within 20%. */
    private static List<CapacityLadder.Overload> overload(String target, int capacity, List<CapacityLadder.Rung> rungs) {
        List<CapacityLadder.Overload> out = new ArrayList<>();
        for (double times : new double[] {1.5, 2}) {
            double want = times * capacity;
            rungs.stream().filter(r -> Math.abs(r.rps() / want - 1) <= OVERLOAD_NEAR)
                    .min((x, y) -> Double.compare(Math.abs(Math.log(x.rps() / want)), Math.abs(Math.log(y.rps() / want))))
                    .flatMap(r -> r.targets().stream().filter(a -> a.target().equals(target)).findFirst()
                            .map(a -> new CapacityLadder.Overload(times, r.rps(), a.goodputRps(), a.errorPct())))
                    .ifPresent(out::add);
        }
        return out;
    }

    private static CapacityLadder.Ratio ratio(String a, String b, Map<String, int[]> point, Map<String, List<int[]>> drawn) {
        List<int[]> da = drawn.get(a);
        List<int[]> db = drawn.get(b);
        double[] lows = new double[da.size()];
        double[] highs = new double[da.size()];
        for (int d = 0; d < da.size(); d++) {
            lows[d] = span(da.get(d)[0], db.get(d)[1]);
            highs[d] = span(da.get(d)[1], db.get(d)[0]);
        }
        Arrays.sort(lows);
        Arrays.sort(highs);
        double lo = lower(lows);
        double hi = upper(highs);
        String outcome = lo > MARGIN ? PairComparison.A : hi < 1 / MARGIN ? PairComparison.B
                : lo >= 1 / MARGIN && hi <= MARGIN ? PairComparison.EQUIVALENT : PairComparison.UNDECIDED;
        int[] pa = point.get(a);
        int[] pb = point.get(b);
        Double mid = pa[0] > 0 && pa[1] > 0 && pb[0] > 0 && pb[1] > 0 ? Math.sqrt((double) pa[0] * pa[1] / ((double) pb[0] * pb[1])) : null;
        return new CapacityLadder.Ratio(a, b, mid == null ? null : round(mid), round(lo), Double.isInfinite(hi) ? null : round(hi), outcome);
    }

    /** x over y, where an absent upper rung (-1) is infinitely high and an absent lower rung (0) is zero. */
    private static double span(int x, int y) {
        double num = x < 0 ? Double.POSITIVE_INFINITY : x;
        double den = y < 0 ? Double.POSITIVE_INFINITY : y;
        if (Double.isInfinite(num) && Double.isInfinite(den)) {
            return 1; // both above the ladder: the rungs say nothing of their ratio, which the other end of the span shows
        }
        return den == 0 ? Double.POSITIVE_INFINITY : num / den;
    }

    /**
     * Each target's bracket {held, missed} over the rungs (0: held none below; -1: missed none), from every rung's rounds, or from
     * a draw of them with replacement when {@code random} is given.
     */
    private static Map<String, int[]> brackets(List<String> targets, List<Integer> rates, TreeMap<Integer, TreeMap<Integer, Map<String, Double>>> rungs,
                                               Random random) {
        Map<String, int[]> out = new LinkedHashMap<>();
        targets.forEach(t -> out.put(t, new int[] {0, -1}));
        for (int rate : rates) {
            List<Map<String, Double>> rounds = new ArrayList<>(rungs.get(rate).values());
            List<Map<String, Double>> used = random == null ? rounds : redraw(rounds, random);
            for (String t : targets) {
                int[] br = out.get(t);
                // A round without the target's block is no evidence at this rung, as one the driver could not offer.
                Ladder.Outcome o = br[1] > 0 ? null : judge(used.stream().map(r -> r.get(t)).toList());
                if (o == Ladder.Outcome.HOLDS) {
                    br[0] = rate;
                } else if (o == Ladder.Outcome.FAILS) {
                    br[1] = rate;
                }
            }
        }
        return out;
    }

    /** As many items drawn from {@code items} with replacement: one bootstrap draw, for the interval and the narrow test alike. */
    private static <T> List<T> redraw(List<T> items, Random random) {
        List<T> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            out.add(items.get(random.nextInt(items.size())));
        }
        return out;
    }

    /** commons-math's, as the lab's other medians (stats): an even count's is the mean of its two middle values. */
    private static double median(double[] values) {
        return new Median().evaluate(values);
    }

    private static double lower(double[] sorted) {
        return sorted[(int) Math.floor(TAIL * (sorted.length - 1))];
    }

    private static double upper(double[] sorted) {
        return sorted[(int) Math.ceil((1 - TAIL) * (sorted.length - 1))];
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /**
     * The rungs held, missed or not offered per target, as the ladder climbs on: the rounds of one rung, judged by their median.
     * Held narrowly where redraws of the rounds, as the bootstrap draws them, do not hold it in more than 2.5% of draws: the
     * interval's lower end would fall below the rung.
     */
    public static Map<String, Ladder.Outcome> rung(List<String> targets, List<Observation> oneRung) {
        TreeMap<Integer, TreeMap<Integer, Map<String, Double>>> g = grid(oneRung);
        if (g.isEmpty()) {
            return Map.of();
        }
        Collection<Map<String, Double>> rounds = g.firstEntry().getValue().values();
        Map<String, Ladder.Outcome> out = judged(targets, g.firstEntry().getValue());
        Random random = new Random(g.firstKey()); // the same rung, the same draws
        out.replaceAll((t, o) -> o == Ladder.Outcome.HOLDS && notHeld(rounds.stream().map(r -> r.get(t)).toList(), random) > TAIL ? Ladder.Outcome.HOLDS_NARROWLY : o);
        return out;
    }

    /** The share of draws of these severities, with replacement, that do not hold the rung. */
    private static double notHeld(List<Double> severities, Random random) {
        int not = 0;
        for (int d = 0; d < DRAWS; d++) {
            not += judge(redraw(severities, random)) == Ladder.Outcome.HOLDS ? 0 : 1;
        }
        return (double) not / DRAWS;
    }

    /** Each target's outcome at one rung from its rounds there (the rounds it has a block in); none without any. */
    private static Map<String, Ladder.Outcome> judged(List<String> targets, TreeMap<Integer, Map<String, Double>> rounds) {
        Map<String, Ladder.Outcome> out = new LinkedHashMap<>();
        for (String t : targets) {
            Ladder.Outcome o = judge(rounds.values().stream().map(r -> r.get(t)).filter(Objects::nonNull).toList());
            if (o != null) {
                out.put(t, o);
            }
        }
        return out;
    }

    /**
     * How a target did at a rung, from its rounds' severities there (NaN or null: not offered): not offered when fewer than half
     * of them were, else held when their median meets the SLO; null without any round.
     */
    private static Ladder.Outcome judge(List<Double> severities) {
        if (severities.isEmpty()) {
            return null;
        }
        double[] offered = offered(severities);
        return offered.length == 0 || offered.length * 2 < severities.size() ? Ladder.Outcome.DRIVER
                : median(offered) < 0 ? Ladder.Outcome.HOLDS : Ladder.Outcome.FAILS;
    }

    /** The severities of the rounds offered (neither NaN nor absent). */
    private static double[] offered(List<Double> severities) {
        return severities.stream().filter(v -> v != null && !Double.isNaN(v)).mapToDouble(Double::doubleValue).toArray();
    }

    /** The median over a target's blocks at one rung of a figure; null when no block has it. */
    private static Double medianOf(List<Observation> oneRung, String target, ToDoubleFunction<Observation> figure) {
        double[] v = oneRung.stream().filter(o -> o.target().equals(target)).mapToDouble(figure).filter(Double::isFinite).toArray();
        return v.length == 0 ? null : round(median(v));
    }

    /** rung -> round -> target -> severity, the blocks of a round's sets averaged. */
    private static TreeMap<Integer, TreeMap<Integer, Map<String, Double>>> grid(List<Observation> observations) {
        Map<List<Object>, double[]> sums = new LinkedHashMap<>();
        for (Observation o : observations) {
            double[] s = sums.computeIfAbsent(List.of(o.rps(), o.round(), o.target()), k -> new double[2]);
            s[0] += o.severity();
            s[1]++;
        }
        TreeMap<Integer, TreeMap<Integer, Map<String, Double>>> out = new TreeMap<>();
        sums.forEach((k, s) -> out.computeIfAbsent((Integer) k.get(0), r -> new TreeMap<>()).computeIfAbsent((Integer) k.get(1), r -> new LinkedHashMap<>())
                .put((String) k.get(2), s[0] / s[1]));
        return out;
    }
}
