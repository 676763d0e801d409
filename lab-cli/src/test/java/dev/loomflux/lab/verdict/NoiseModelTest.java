package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.PairComparison;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The noise model the stopping simulations run on: it makes runs like its source, and its fit finds the terms a run is made of. */
class NoiseModelTest {
    private static final List<String> TARGETS = List.of("mvc", "mvc-vt", "webflux");

    private static BlockRecord record(NoiseModel.Row r) {
        double[] v = r.values();
        return BlockRecord.builder().scenario("json").set(r.set()).round(r.round()).position(r.position()).target(r.target()).users(50).seconds(1.0)
                .requests(Math.round(v[0])).responses(Math.round(v[0])).errors(0).rps(v[0]).p50(v[1]).p99(v[2]).meanMs(v[1] * 1.1).inFlight(49.8)
                .cpuMsPerRequest(v[3]).rssMb(512.0).reconnections(0L).build();
    }

    /** Per metric, the mean half-width (in logs) of one set's comparisons, over every pair of the runs' targets. */
    private static double[] halfWidths(List<List<BlockRecord>> runs) {
        double[] sum = new double[NoiseModel.METRICS.size()];
        int[] n = new int[sum.length];
        for (List<BlockRecord> run : runs) {
            for (PairComparison c : Comparisons.of(run, TARGETS)) {
                int m = NoiseModel.METRICS.indexOf(c.metricKind());
                sum[m] += (Math.log(c.estimate().ci().get(1)) - Math.log(c.estimate().ci().get(0))) / 2;
                n[m]++;
            }
        }
        for (int m = 0; m < sum.length; m++) {
            sum[m] /= n[m];
        }
        return sum;
    }

    @Test
    void itMakesRunsWhoseOneSetIntervalsAreAsWideAsItsSourcesOwn() {
        NoiseModel model = NoiseModel.fitted();
        System.out.print("noise model\n" + model.describe());
        List<NoiseModel.Row> rows = NoiseModel.read(NoiseModel.FIXTURE);
        // The source's runs, each set on its own: the rounds' spread without the JVMs' part, which one set does not have.
        List<List<BlockRecord>> source = new ArrayList<>();
        Map<String, double[]> ratios = new HashMap<>();
        for (String run : rows.stream().map(NoiseModel.Row::run).distinct().toList()) {
            for (int set = 1; set <= 2; set++) {
                int s = set;
                source.add(rows.stream().filter(r -> r.run().equals(run) && r.set() == s).map(NoiseModelTest::record).toList());
            }
        }
        for (String t : TARGETS) {
            double[] level = new double[NoiseModel.METRICS.size()];
            for (int m = 0; m < level.length; m++) {
                int mm = m;
                level[m] = Math.exp(rows.stream().filter(r -> r.target().equals(t)).mapToDouble(r -> Math.log(r.values()[mm])).average().orElseThrow())
                        / model.base[m];
            }
            ratios.put(t, level);
        }
        List<List<BlockRecord>> made = new ArrayList<>();
        for (long seed = 1; seed <= 60; seed++) {
            made.add(model.run(TARGETS, ratios, 2, 45, seed).stream().filter(b -> b.set() == 1).toList());
        }
        // Its rounds' largest drops, what the slowdowns were fitted to, lie where the source's do (75%, 90%, 95%).
        for (int i = 1; i < NoiseModel.TAILS.length; i++) {
            assertEquals(model.measuredTails[i], model.modelTails[i], 0.03, model.describe());
        }
        double[] measured = halfWidths(source);
        double[] modelled = halfWidths(made);
        System.out.printf("one set's 95%% half-widths (logs) per metric: the source's %s, the model's %s%n", java.util.Arrays.toString(measured),
                java.util.Arrays.toString(modelled));
        for (int m = 0; m < measured.length; m++) {
            assertEquals(1, modelled[m] / measured[m], 0.15, NoiseModel.METRICS.get(m).id() + ": the model's " + modelled[m] + ", the source's " + measured[m]);
        }
    }

    @Test
    void theFitFindsTheTermsOfRunsMadeByTheModel() {
        NoiseModel truth = NoiseModel.fitted();
        List<NoiseModel.Row> rows = new ArrayList<>();
        for (long seed = 1; seed <= 20; seed++) {
            for (BlockRecord b : truth.run(TARGETS, Map.of("mvc", NoiseModel.better(1.3), "webflux", NoiseModel.better(0.8)), 2, 45, seed)) {
                rows.add(new NoiseModel.Row("run" + seed, b.set(), b.round(), b.turn().position(), b.target(), new double[] {b.load().rps(), b.latency().p50(), b.latency().p99(),
                        b.resources().cpuMsPerRequest()}));
            }
        }
        NoiseModel fit = NoiseModel.fit(rows);
        String both = "truth:\n" + truth.describe() + "fit:\n" + fit.describe();
        System.out.print("the noise model refitted on 20 runs it made\n" + fit.describe());
        assertEquals(truth.noiseSd, fit.noiseSd, 0.15 * truth.noiseSd, both);
        assertEquals(truth.walkSd, fit.walkSd, 0.2 * truth.walkSd, both);
        assertEquals(truth.jvmSd, fit.jvmSd, 0.5 * truth.jvmSd, both);
        for (int m = 1; m < NoiseModel.METRICS.size(); m++) {
            assertEquals(truth.loading[m], fit.loading[m], 0.05, both);
            assertEquals(truth.ownSd[m], fit.ownSd[m], 0.15 * truth.ownSd[m] + 0.002, both);
        }
        // Slowdowns trade rate against size (docs/statistics.md): that the fit finds some is what can be asked of 20 runs.
        assertTrue(fit.slowRate > 0 && fit.slowSize > 0, both);
    }
}
