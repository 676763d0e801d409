package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Category differences over rounds under a noise model shaped like the default run's blocks: about 30 JFR samples a block
 * (1,228-1,646 over 45 blocks, docs/telemetry.md), whole rounds slowed together by a lognormal 15%, 6% noise per block, and
 * every JVM at a level of its own, 3% on its CPU per request and 5% on each category's share.
 */
class CategoryDifferencesTest {
    private static final List<String> LABELS = List.of("server-io", "dispatch", "reactor", "vt-scheduling", "json", "db", "http-client", "app", "other");
    /** Each category's share of a JVM's samples; 30 µs of CPU per request. */
    private static final double[] SHARES = {0.3, 0.15, 0, 0.05, 0.15, 0, 0, 0.2, 0.15};
    private static final double CPU_MS = 0.030;

    /** Two sets of a and b over {@code rounds} rounds; b spends {@code extraUs} more per request in dispatch. */
    private static List<BlockRecord> run(Random rnd, int rounds, double extraUs) {
        List<BlockRecord> out = new ArrayList<>();
        Map<String, double[]> jvmShares = new LinkedHashMap<>();
        Map<String, Double> jvmCpu = new LinkedHashMap<>();
        for (String t : List.of("a", "b")) {
            for (int set = 1; set <= 2; set++) {
                double[] shares = new double[SHARES.length];
                double cpu = CPU_MS * Math.exp(0.03 * rnd.nextGaussian());
                for (int c = 0; c < shares.length; c++) {
                    shares[c] = SHARES[c] * cpu * Math.exp(0.05 * rnd.nextGaussian());
                }
                if (t.equals("b")) {
                    shares[1] += extraUs / 1000;
                }
                double sum = 0;
                for (double s : shares) {
                    sum += s;
                }
                for (int c = 0; c < shares.length; c++) {
                    shares[c] /= sum;
                }
                jvmShares.put(t + set, shares);
                jvmCpu.put(t + set, sum);
            }
        }
        for (int r = 1; r <= rounds; r++) {
            double machine = Math.exp(0.15 * rnd.nextGaussian());
            for (Map.Entry<String, double[]> jvm : jvmShares.entrySet()) {
                double cpu = jvmCpu.get(jvm.getKey()) * machine * Math.exp(0.06 * rnd.nextGaussian());
                Map<String, Long> samples = new LinkedHashMap<>();
                LABELS.forEach(l -> samples.put(l, 0L));
                for (int i = 0; i < 30; i++) {
                    samples.merge(LABELS.get(draw(jvm.getValue(), rnd)), 1L, Long::sum);
                }
                String target = jvm.getKey().substring(0, 1);
                int set = Integer.parseInt(jvm.getKey().substring(1));
                out.add(BlockRecord.builder().scenario("json").set(set).round(r).position(0).target(target).users(50).seconds(1).requests(1000)
                        .responses(1000).errors(0).rps(1000).p50(1.0).p99(3.0).meanMs(1.0).inFlight(50.0).cpuMsPerRequest(cpu).rssMb(300.0).gcMs(1.0)
                        .canaryUs(500.0).build().withCategories(samples));
            }
        }
        return out;
    }

    private static int draw(double[] p, Random rnd) {
        double u = rnd.nextDouble();
        for (int i = 0; i < p.length; i++) {
            u -= p[i];
            if (u < 0) {
                return i;
            }
        }
        return p.length - 1;
    }

    /**
     * The same target twice: over 200 runs of 45 rounds, at most 10 (5%) name any of the six categories with samples (the
     * family: the three without, as gc and jit under JFR, cannot differ). With the intervals alone, the JVMs' levels read from
     * two sets, 17 did over nine; beyond the 5% margin as well, none.
     */
    @Test
    void theSameTargetTwiceRarelyDiffersInAnyCategory() {
        Random rnd = new Random(43);
        int named = 0;
        for (int i = 0; i < 200; i++) {
            List<CategoryDifferences.Difference> d = CategoryDifferences.of(run(rnd, 45, 0), "a", "b");
            assertEquals(List.of("server-io", "dispatch", "vt-scheduling", "json", "app", "other"), d.stream().map(CategoryDifferences.Difference::category).toList());
            if (d.stream().anyMatch(CategoryDifferences.Difference::differs)) {
                named++;
            }
        }
        assertTrue(named <= 10, named + " of 200 A/A runs named a category");
    }

    /** 4.5 µs more in dispatch (twice the 4.5 µs a spends there, 15% of the whole): found in at least 180 of 200 runs, and its estimate near 4.5. */
    @Test
    void aCategoryWhereOneSpendsMoreIsFoundAndMeasured() {
        Random rnd = new Random(44);
        int found = 0;
        double sum = 0;
        for (int i = 0; i < 200; i++) {
            CategoryDifferences.Difference dispatch = CategoryDifferences.of(run(rnd, 45, 4.5), "a", "b").get(1);
            assertEquals("dispatch", dispatch.category());
            if (dispatch.differs() && dispatch.high() < 0) {
                found++;
            }
            sum += dispatch.estimate();
        }
        assertTrue(found >= 180, found + " of 200");
        assertEquals(-4.5, sum / 200, 0.5, "a - b, in µs");
    }

    /** Blocks without samples per category (a run before schema 15, or no profile) give no differences at all. */
    @Test
    void blocksWithoutCategoriesGiveNone() {
        List<BlockRecord> plain = run(new Random(1), 10, 0).stream().map(b -> b.withCategories(null)).toList();
        assertEquals(List.of(), CategoryDifferences.of(plain, "a", "b"));
    }
}
