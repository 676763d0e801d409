package dev.loomflux.lab.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A paired run of the built-in crud flow made in code, as the lab records one in results.json (schema 13): blocks with each
 * flow's and step's figures, results with their flows and the rows their copy of table item was left with. For the tests
 * of results.json, the comparisons and the report.
 */
public final class FlowRuns {
    /** The crud flow's steps as the lab names them: name and request. */
    public static final List<List<String>> STEPS = List.of(List.of("create", "POST /items"), List.of("read", "GET /items/${id}"),
            List.of("update", "PUT /items/${id}"), List.of("delete", "DELETE /items/${id}"));
    /** Each step's median latency in ms on the fixture's machine at its usual speed. */
    private static final double[] STEP_P50 = {4, 2, 4, 3};
    private static final int USERS = 20;
    private static final double BLOCK_S = 5;

    private FlowRuns() {
    }

    /**
     * Rounds of 5 s crud blocks of {@code a} and {@code b} at 20 busy users: the machine swings by a third from round to round,
     * each step's latency has 3% noise per block, and b's {@code slowStep} takes {@code slower} times a's (1: the same). A
     * user's cycle is the flow's mean latency, so a slower step slows b's whole iterations a little too.
     */
    public static List<BlockRecord> blocks(String a, String b, int rounds, String slowStep, double slower, long seed) {
        Random rnd = new Random(seed);
        List<BlockRecord> out = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            double machine = 0.7 + 0.6 * rnd.nextDouble();
            out.add(block(a, r, 0, machine, null, 1, rnd));
            out.add(block(b, r, 1, machine, slowStep, slower, rnd));
        }
        return out;
    }

    private static BlockRecord block(String target, int round, int position, double machine, String slowStep, double slower, Random rnd) {
        double[] p50 = new double[STEPS.size()];
        double flowMean = 0;
        for (int i = 0; i < p50.length; i++) {
            double factor = STEPS.get(i).get(0).equals(slowStep) ? slower : 1;
            p50[i] = STEP_P50[i] * factor * machine * (1 + 0.03 * rnd.nextGaussian());
            flowMean += p50[i] * 1.1;
        }
        double rps = USERS / (flowMean / 1000);
        long completed = Math.round(rps * BLOCK_S);
        List<BlockRecord.StepFigures> steps = new ArrayList<>();
        for (int i = 0; i < p50.length; i++) {
            steps.add(new BlockRecord.StepFigures(STEPS.get(i).get(0), STEPS.get(i).get(1), completed, 0, Result.round(rps), Result.round(p50[i]),
                    Result.round(p50[i] * 3)));
        }
        BlockRecord.FlowFigures crud = new BlockRecord.FlowFigures("crud", completed, 0, Result.round(rps), Result.round(flowMean * 0.95),
                Result.round(flowMean * 2.5), Result.round(flowMean), steps);
        double meanMs = flowMean / STEPS.size();
        return BlockRecord.builder().scenario("crud").set(1).round(round).position(position).target(target).users(USERS).seconds(BLOCK_S)
                .requests(completed * 4).responses(completed * 4).errors(0).rps(Result.round(rps * 4)).p50(Result.round(meanMs * 0.9))
                .p99(Result.round(meanMs * 3)).meanMs(Result.round(meanMs)).inFlight(19.8).cpuMsPerRequest(Result.round(0.1 * machine)).rssMb(300.0)
                .gcMs(1.0).canaryUs(500.0).reconnections(0L).flows(List.of(crud)).build();
    }

    /**
     * The whole record: targets a and b, the given blocks and the comparisons drawn from them, a result per target with its
     * flow and steps (create: {@code missing} responses without an id) and its copy of table item at 10,000 rows reset and
     * {@code 10,000 + left} after.
     */
    public static RunRecord record(Environment environment, String a, String b, List<BlockRecord> blocks, List<PairComparison> comparisons) {
        List<ExperimentDescription.TargetDescription> targets = List.of(a, b).stream()
                .map(t -> new ExperimentDescription.TargetDescription(t, t, null, null, null, Map.of(), List.of(), null)).toList();
        ExperimentDescription experiment = new ExperimentDescription("flow-crud", targets,
                List.of(new ExperimentDescription.ScenarioDescription("crud", "flow", Map.of(), null, "/items")),
                new ExperimentDescription.ProfileDescription("fixed", null, USERS, null, null, null, null, null), 10, 0, null, 1, "512m", List.of(), null,
                null, new ExperimentDescription.DesignDescription("paired", 20, BLOCK_S, 0.0, 0), "hyperfoil");
        List<Result> results = List.of(result(a, 12, 0), result(b, 9, 3));
        return new RunRecord(new RunRecord.Header(RunRecord.SCHEMA, "20261201-100000-flow-crud", "completed", "2026-12-01T10:00:00Z", "2026-12-01T10:05:00Z"),
                environment, experiment, results, null, new RunRecord.PairedRounds(blocks, comparisons, null));
    }

    /** One target's result over its blocks: 100 s of crud at about 1,400 iterations/s. */
    public static Result result(String target, long left, long missing) {
        return result(target, left, missing, null, 1);
    }

    /** The same with {@code slowStep}'s latencies {@code slower} times the others'. */
    public static Result result(String target, long left, long missing, String slowStep, double slower) {
        long completed = 140_000;
        List<StepResult> steps = new ArrayList<>();
        for (int i = 0; i < STEPS.size(); i++) {
            String step = STEPS.get(i).get(0);
            long failed = i == 0 ? missing : 0;
            steps.add(new StepResult(step, STEPS.get(i).get(1), completed + failed, completed + failed, 1400.0 + failed / 100.0,
                    latency(STEP_P50[i] * (step.equals(slowStep) ? slower : 1)),
                    new Result.ErrorCounts(failed, 0, 0, 0, 0, 0, 0L, failed), failed > 0 ? "step create: no $.id in the response" : null,
                    target + ".crud.crud." + step + ".hlog"));
        }
        FlowResult crud = new FlowResult("crud", completed, missing, 1400.0, 19.8, latency(14.3), target + ".crud.crud.hlog", steps);
        Result.WindowLoad load = new Result.WindowLoad(100.0, completed * 4 + missing, completed * 4 + missing, 5600.0, 19.8, latency(3.3),
                new Result.ErrorCounts(missing, 0, 0, 0, 0, 0, 0L, missing), null, null, null, 0L, List.of(crud), new Result.DataRows(10_000, 10_000 + left));
        return new Result(new Result.Key(target, "crud", 1, null, null, null), Result.Status.OK, load, new Result.Telemetry(List.of(), null, null, null, null),
                new Result.Files(target + ".crud.hlog", "rounds.crud.hyperfoil.yaml", null, null), new Result.Checks(null, null, null), null,
                new Result.TargetJvm(4000L, "0", null));
    }

    private static Result.Latency latency(double p50) {
        return new Result.Latency(Result.round(p50 * 1.1), p50, p50 * 2, p50 * 2.5, p50 * 3, p50 * 5, p50 * 8);
    }
}
