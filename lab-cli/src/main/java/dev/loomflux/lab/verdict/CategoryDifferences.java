package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.stats.Paired;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Where two targets' CPU per request differs, category by category, over the rounds (issue 43: "paired over blocks, so the
 * categories carry intervals like the totals do"). In a block, a category's µs per request is its share of the JVM's samples
 * in that block times the block's own CPU per request; per round the sets' values are averaged, as the comparisons pool
 * them, and the per-round differences a - b get the Hodges-Lehmann estimate and a Wilcoxon interval ({@link Paired#shift}).
 *
 * <p>The intervals hold together, not one by one: each is taken at 5% / k for the k categories with a sample in a block of
 * either target (Bonferroni), where k separate 95% intervals would name one in about every third A/A run of nine
 * categories. A category with no sample in either cannot differ and does not widen the others: under JFR, gc and jit
 * never have one ({@link dev.loomflux.lab.cpuprofile.Category}). Like the totals' intervals, each
 * is widened by the JVMs' own levels ({@link Comparisons#jvmSd}): two JVMs of one jar compile their code their own way,
 * and a category can sit apart in one of them for the whole run. And like a verdict, a category is named only beyond a
 * minimum effect, 5% of the pair's CPU per request: with the JVMs' levels read from two sets, intervals alone named a
 * category in 17 of 200 simulated A/A runs (docs/telemetry.md, "The split with intervals").
 */
public final class CategoryDifferences {
    private CategoryDifferences() {
    }

    /**
     * One category's a - b in µs of CPU per request.
     *
     * @param low    lower end of the interval; NaN when the rounds are too few for one at the family's level
     * @param margin the smallest difference worth naming, in µs: the verdicts' minimum effect (5%) of the two targets' mean
     *               CPU per request, so that a category is named only for what would move the total by that much
     * @param rounds rounds with a value for both
     */
    public record Difference(String category, double estimate, double low, double high, double margin, int rounds) {
        public boolean known() {
            return !Double.isNaN(low);
        }

        /** The whole interval lies beyond the margin, on either side. */
        public boolean differs() {
            return known() && (low > margin || high < -margin);
        }
    }

    /**
     * @param blocks the blocks of one scenario (and sweep cell)
     * @return a difference per category with a sample, in the blocks' order, or none when a's or b's blocks have no samples per
     *         category
     */
    public static List<Difference> of(List<BlockRecord> blocks, String a, String b) {
        List<BlockRecord> pair = blocks.stream().filter(x -> x.categories() != null && (x.target().equals(a) || x.target().equals(b))).toList();
        List<String> labels = pair.stream().findFirst().map(x -> x.categories().keySet().stream()
                .filter(label -> pair.stream().anyMatch(y -> y.categories().getOrDefault(label, 0L) > 0)).toList()).orElse(List.of());
        List<Difference> out = new ArrayList<>();
        if (labels.isEmpty()) {
            return out;
        }
        double alpha = Stats.ALPHA / labels.size();
        double margin = Stats.MIN_EFFECT_PCT / 100 * 1000 * blocks.stream().filter(x -> (x.target().equals(a) || x.target().equals(b))
                && x.resources().cpuMsPerRequest() != null).mapToDouble(x -> x.resources().cpuMsPerRequest()).average().orElse(0);
        double z = new NormalDistribution().inverseCumulativeProbability(1 - alpha / 2);
        for (String label : labels) {
            double[] d = differences(blocks, label, a, b);
            if (d.length == 0) {
                return List.of();
            }
            double[] shift = Paired.shift(d, alpha, z * Comparisons.jvmSd(blocks, x -> micros(x, label), a, b));
            out.add(new Difference(label, shift[0], shift[1], shift[2], margin, d.length));
        }
        return out;
    }

    /** A category's µs of CPU per request in a block; null without samples or a CPU figure. */
    static Double micros(BlockRecord block, String label) {
        Map<String, Long> samples = block.categories();
        if (samples == null || block.resources().cpuMsPerRequest() == null) {
            return null;
        }
        long total = samples.values().stream().mapToLong(Long::longValue).sum();
        return total == 0 ? null : 1000 * block.resources().cpuMsPerRequest() * samples.getOrDefault(label, 0L) / total;
    }

    /** Per round with both, the mean over the sets that have both of a's value minus b's. */
    private static double[] differences(List<BlockRecord> blocks, String label, String a, String b) {
        Map<String, Double> bs = new TreeMap<>();
        for (BlockRecord x : blocks) {
            Double v = x.target().equals(b) ? micros(x, label) : null;
            if (v != null) {
                bs.put(x.set() + "/" + x.round(), v);
            }
        }
        Map<Integer, double[]> byRound = new TreeMap<>();
        for (BlockRecord x : blocks) {
            Double v = x.target().equals(a) ? micros(x, label) : null;
            Double other = bs.get(x.set() + "/" + x.round());
            if (v != null && other != null) {
                double[] sum = byRound.computeIfAbsent(x.round(), r -> new double[2]);
                sum[0] += v - other;
                sum[1]++;
            }
        }
        return byRound.values().stream().mapToDouble(s -> s[0] / s[1]).toArray();
    }
}
