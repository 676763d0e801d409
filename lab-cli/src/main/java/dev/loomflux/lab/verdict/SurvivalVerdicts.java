package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Survival;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.commons.math3.distribution.BetaDistribution;
import org.apache.commons.math3.distribution.HypergeometricDistribution;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * results.json's {@code survival} from its {@code blocks}: per scenario (and cell) measured as whole shapes, each target's
 * deaths over its rounds with an exact binomial interval, every pair's by Fisher's exact test (docs/statistics.md,
 * "Survival"), and each target's peaks and recovery after the shape's peak. A death is a block's outcome, not a figure: no ratio of a died block enters the other
 * comparisons ({@link Comparisons}), so survival is judged on its own, as a count.
 */
public final class SurvivalVerdicts {
    private SurvivalVerdicts() {
    }

    public static List<Survival> of(List<BlockRecord> blocks, List<String> targets) {
        Map<String, List<BlockRecord>> byWhere = blocks.stream().collect(Collectors.groupingBy(BlockRecord::where, LinkedHashMap::new, Collectors.toList()));
        List<Survival> out = new ArrayList<>();
        byWhere.forEach((where, list) -> {
            if (list.stream().allMatch(b -> b.shape() == null)) {
                return;
            }
            Map<String, Survival.Target> byTarget = new LinkedHashMap<>();
            for (String t : targets) {
                List<BlockRecord> own = list.stream().filter(b -> b.target().equals(t)).toList();
                if (!own.isEmpty()) {
                    byTarget.put(t, target(t, own));
                }
            }
            List<Survival.Pair> pairs = new ArrayList<>();
            List<String> present = List.copyOf(byTarget.keySet());
            for (int i = 0; i < present.size(); i++) {
                for (int j = i + 1; j < present.size(); j++) {
                    pairs.add(pair(byTarget.get(present.get(i)), byTarget.get(present.get(j))));
                }
            }
            BlockRecord first = list.get(0);
            out.add(new Survival(first.scenario(), first.cell(), List.copyOf(byTarget.values()), pairs));
        });
        return out;
    }

    private static Survival.Target target(String name, List<BlockRecord> own) {
        List<BlockRecord.Death> deaths = own.stream().filter(BlockRecord::died).map(b -> b.shape().died()).toList();
        int n = own.size();
        int k = deaths.size();
        double[] ci = clopperPearson(k, n);
        Map<String, Integer> causes = new TreeMap<>();
        deaths.forEach(d -> causes.merge(d.cause().lines().findFirst().orElse(""), 1, Integer::sum));
        Double rss = median(deaths, BlockRecord.Death::rssMb);
        Double threads = median(deaths, d -> d.threads() == null ? null : d.threads().doubleValue());
        Double files = median(deaths, d -> d.openFiles() == null ? null : d.openFiles().doubleValue());
        List<BlockRecord.Shape> shapes = own.stream().map(BlockRecord::shape).filter(s -> s != null).toList();
        Double peakRss = median(shapes, BlockRecord.Shape::peakRssMb);
        Double peakThreads = median(shapes, s -> s.peakThreads() == null ? null : s.peakThreads().doubleValue());
        List<BlockRecord.Recovery> judged = shapes.stream().map(BlockRecord.Shape::recovery).filter(r -> r != null).toList();
        List<BlockRecord.Recovery> recovered = judged.stream().filter(r -> r.afterS() != null).toList();
        return new Survival.Target(name, n, k, Result.round(100 * ci[0]), Result.round(100 * ci[1]), k == 0 ? null : causes,
                median(deaths, BlockRecord.Death::seconds), rss, threads == null ? null : (int) Math.round(threads),
                files == null ? null : Math.round(files), peakRss, peakThreads == null ? null : (int) Math.round(peakThreads),
                judged.isEmpty() ? null : new Survival.Recovery(judged.size(), recovered.size(), median(recovered, BlockRecord.Recovery::afterS)));
    }

    private static Survival.Pair pair(Survival.Target a, Survival.Target b) {
        if (a.died() == 0 && b.died() == 0) {
            return new Survival.Pair(a.target(), b.target(), Survival.NEITHER_DIED, null, 1);
        }
        double p = fisher(a.died(), a.rounds(), b.died(), b.rounds());
        boolean decided = p < Stats.ALPHA;
        String winner = !decided ? null : (double) a.died() / a.rounds() < (double) b.died() / b.rounds() ? a.target() : b.target();
        return new Survival.Pair(a.target(), b.target(), decided ? Survival.WINNER : Survival.UNDECIDED, winner, Math.round(p * 10000) / 10000.0);
    }

    /**
     * The exact (Clopper-Pearson) 95% interval of a share of {@code k} in {@code n}, from the beta distribution's quantiles:
     * commons-math3's ClopperPearsonInterval fails at 0 and at n (an F distribution with 0 degrees of freedom), the counts a
     * spike gives most.
     */
    static double[] clopperPearson(int k, int n) {
        double half = Stats.ALPHA / 2;
        double low = k == 0 ? 0 : new BetaDistribution(k, n - k + 1.0).inverseCumulativeProbability(half);
        double high = k == n ? 1 : new BetaDistribution(k + 1.0, n - k).inverseCumulativeProbability(1 - half);
        return new double[] {low, high};
    }

    /**
     * Fisher's exact test, two-sided, of k1 deaths in n1 against k2 in n2: the chance, with the deaths' total fixed, of a table
     * at most as likely as the one seen. Survival is counted over rounds, not paired within one: a paired test (McNemar's)
     * decides only on the rounds where one died and the other did not, and with 4 such rounds cannot reach 5%.
     */
    static double fisher(int k1, int n1, int k2, int n2) {
        HypergeometricDistribution h = new HypergeometricDistribution(null, n1 + n2, k1 + k2, n1);
        double seen = h.probability(k1);
        double p = 0;
        for (int x = Math.max(0, k1 + k2 - n2); x <= Math.min(n1, k1 + k2); x++) {
            double px = h.probability(x);
            if (px <= seen * (1 + 1e-7)) {
                p += px;
            }
        }
        return Math.min(1, p);
    }

    private static <T> Double median(List<T> items, Function<T, Double> figure) {
        double[] v = items.stream().map(figure).filter(x -> x != null).mapToDouble(Double::doubleValue).toArray();
        return v.length == 0 ? null : Result.round(new Median().evaluate(v));
    }
}
