package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.FlowRuns;
import dev.loomflux.lab.result.LeadIn;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.ScenarioPart;
import dev.loomflux.lab.result.SteadyState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paired run of crud on three targets, two sets each, 10 rounds of 4 s blocks, made from records, in which three JVMs never
 * got quiet, each in its own way, and three did:
 * <ul>
 * <li>mvc set 2's own compiler threads took 3.5% of a CPU in its first 3 blocks (the limit is 2%), then 0.5%;</li>
 * <li>mvc set 1's own took 1.9%, just under, though with the others' 1.5% its blocks' compiler CPU was 3.4%: it is not named;</li>
 * <li>webflux set 1's load stage ran out of its 75 s cap (30 s compile stage, 45 s of load) with its JIT compiling;</li>
 * <li>webflux set 2's finished compilations took 6.0% of the rounds' time (limit 5%), every other JVM's 1.0%.</li>
 * </ul>
 * The lead-in took 6 of its 10 rounds.
 */
class QuietReportTest {
    static final String WHY = "every JVM's JIT quiet for 3 rounds in a row (compiler threads at most 1.2% of a CPU over a round; limit 2%)";

    @TempDir
    Path dir;

    static RunRecord run(String mvc) throws IOException {
        List<String> targets = List.of(mvc, "mvc-vt", "webflux");
        List<BlockRecord> blocks = new ArrayList<>();
        for (int round = 1; round <= 10; round++) {
            int position = 0;
            for (int set = 1; set <= 2; set++) {
                for (String t : targets) {
                    double own = t.equals(mvc) ? (set == 1 ? 76 : round <= 3 ? 140 : 20) : 20;
                    double jit = t.equals("webflux") && set == 2 ? 1440 : 240;
                    blocks.add(BlockRecord.builder().scenario("crud").set(set).round(round).position(position++).target(t).users(20).seconds(4)
                            .requests(40_000).responses(40_000).rps((t.equals("webflux") ? 9000 : 10_000) + 10 * round).p50(1.0).p99(4.0).meanMs(1.2)
                            .inFlight(19.9).cpuMsPerRequest(0.05).rssMb(300.0).gcMs(1.0).jitMs(jit).compilerCpuMs(own, 60.0).build());
                }
            }
        }
        List<Result> results = new ArrayList<>();
        for (String t : targets) {
            for (int set = 1; set <= 2; set++) {
                boolean capped = t.equals("webflux") && set == 1;
                List<SteadyState.WarmupSecond> series = new ArrayList<>();
                for (int s = 0; s < (capped ? 75 : 52); s++) {
                    series.add(new SteadyState.WarmupSecond(s, 5000.0, 2.0, 100.0, 50.0, null));
                }
                SteadyState ss = new SteadyState(!capped, capped ? null : 50, capped ? 75.0 : 52.0, null, capped ? 30 : 20, 2, null, null,
                        new SteadyState.DriftCheck(false, null, null, null, null, null), true, series);
                Result r = FlowRuns.result(t, 0, 0);
                int jvm = set;
                // As the rounds write it: a row per block, t its round.
                List<Result.PerSecond> rows = blocks.stream().filter(b -> b.target().equals(t) && b.set() == jvm)
                        .map(b -> new Result.PerSecond.Builder(b.round()).rps(b.load().rps()).p50(b.latency().p50()).p99(b.latency().p99()).build()).toList();
                results.add(new Result(r.key(), r.outcome(), r.load(), new Result.Telemetry(rows, null, null, null, null, null), r.files(),
                        new Result.Checks(ss, null, null), r.slo(), r.visit()).withSet(set, null));
            }
        }
        List<PairComparison> comparisons = List.of(comparison(mvc, "mvc-vt", PairComparison.A), comparison(mvc, "webflux", PairComparison.A),
                comparison("mvc-vt", "webflux", PairComparison.UNDECIDED));
        RunRecord base = FlowRuns.record(RunRecord.read(ReportMarkdownTest.PAIRED.resolve("results.json")).environment(), mvc, "webflux", blocks, comparisons);
        ExperimentDescription e = base.experiment();
        ExperimentDescription experiment = new ExperimentDescription(e.name(), targets.stream()
                .map(t -> new ExperimentDescription.TargetDescription(t, t, null, null, null, Map.of(), List.of(), null)).toList(), e.scenarios(), e.profile(),
                75, 0, null, 2, e.heap(), e.jvmFlags(), null, null, new ExperimentDescription.DesignDescription("paired", 10, 4.0, 1.0, 10), e.driver());
        LeadIn leadIn = new LeadIn("crud", null, 6, 10, WHY, java.util.Arrays.asList(9.4, 4.1, null, 1.2, 0.8, 0.6));
        return new RunRecord(base.header(), base.environment(), experiment, results, null, new RunRecord.PairedRounds(blocks, comparisons, null, List.of(leadIn)));
    }

    private static PairComparison comparison(String a, String b, String outcome) {
        return new PairComparison("crud", null, ScenarioPart.WHOLE, "throughput", a, b, new PairComparison.RatioEstimate(1.1, List.of(1.06, 1.14), 10),
                new PairComparison.Judgement(outcome, null, null), null);
    }

    /** Each cell names its pair's JVMs that never got quiet, with why; the JVMs under every limit are named in none. */
    @Test
    void theAnswerMatrixNamesEachJvmThatNeverGotQuietInItsCells() throws IOException {
        Report.write(dir, run("mvc"));
        String md = Files.readString(dir.resolve("report.md"));
        String matrix = md.substring(0, md.indexOf("## Executive summary"));
        String mvc2 = "mvc set 2 (compiler past 2% of a CPU in 3 of 10 blocks)";
        String webflux = "webflux set 1 (load stage at its cap), webflux set 2 (JIT 6.0% of the rounds (limit 5%))";
        assertTrue(matrix.contains("| mvc / mvc-vt | mvc better: 1.100 (1.060-1.140); not quiet: " + mvc2 + " |"), matrix);
        assertTrue(matrix.contains("| mvc / webflux | mvc better: 1.100 (1.060-1.140); not quiet: " + mvc2 + ", " + webflux + " |"), matrix);
        assertTrue(matrix.contains("| mvc-vt / webflux | undecided: 1.100 (1.060-1.140); not quiet: " + webflux + " |"), matrix);
        assertFalse(matrix.contains("mvc set 1") || matrix.contains("mvc-vt set"), "under every limit, though mvc set 1's blocks had 3.4% with the others': " + matrix);
        assertTrue(Files.readString(dir.resolve("report.html")).contains("<td>mvc better: 1.100 (1.060-1.140); not quiet: " + mvc2 + "</td>"), "the HTML cell");
    }

    /** The time to steady: each JVM's compile and load stage, the one whose load stage ran out named with what to set, and the lead-in. */
    @Test
    void theTimeToSteadyHasEachJvmsStagesAndTheLeadIn() throws IOException {
        Report.write(dir, run("mvc"));
        String md = Files.readString(dir.resolve("report.md"));
        String section = md.substring(md.indexOf("## Time to steady"), md.indexOf("## Config parity"));
        assertTrue(section.contains("\n- webflux set 1 (crud): its load stage ran out of its cap, 75 s of warmup, with its JIT still compiling; "
                + "set a longer --warmup than its 75 s (e.g. --warmup 150s).\n"), section);
        assertEquals(1, section.split("ran out of its cap", -1).length - 1, "one JVM ran out: " + section);
        assertTrue(section.contains("| target | set | scenario | compile stage | load stage | s to steady | warmup s |\n|---|---|---|---|---|---|---|\n"
                + "| mvc | 1 | crud | 20 s at 2 users | quiet after 30 s | 50 | 52 |\n"), section);
        assertTrue(section.contains("| webflux | 1 | crud | 30 s at 2 users | at its cap after 45 s, its JIT still compiling | not within 75 s | 75 |\n"), section);
        assertTrue(section.contains("| crud | 6 of 10 | " + WHY + " | 9.4, 4.1, -, 1.2, 0.8, 0.6 |\n"), section);
        assertFalse(md.contains("## Steady state"), "a paired run's warmup is its time to steady");
    }

    /** The compact table per JVM: throughput, the compiler CPU over its blocks (with the others'), its own most, its JIT's share. */
    @Test
    void theScenarioHasItsJitPerJvmInATable() throws IOException {
        Report.write(dir, run("mvc"));
        String md = Files.readString(dir.resolve("report.md"));
        String table = md.substring(md.indexOf("**JIT in the rounds"));
        assertTrue(table.contains("| JVM | rounds | throughput rps median (min-max) | compiler % all JVMs median / max | compiler % own max "
                + "| own blocks past the limit | JIT share of the rounds | quiet |\n"), table);
        // mvc set 1: (76 + 60) ms over 4 s = 3.4%, its own 1.9%.
        assertTrue(table.contains("| mvc set 1 | 10 | 10055 (10010-10100) | 3.4 / 3.4 | 1.9 | 0 of 10 | 1.0% | yes |\n"), table);
        assertTrue(table.contains("| mvc set 2 | 10 | 10055 (10010-10100) | 2.0 / 5.0 | 3.5 | 3 of 10 | 1.0% | no: compiler past 2% of a CPU in 3 of 10 blocks |\n"),
                table);
        assertTrue(table.contains("| webflux set 2 | 10 | 9055 (9010-9100) | 2.0 / 2.0 | 0.5 | 0 of 10 | 6.0% | no: JIT 6.0% of the rounds (limit 5%) |\n"), table);
    }

    /** The chart beside throughput: every JVM's line and its own dashed, per round; the lead-in before round 1; the limit. */
    @Test
    void theJitChartSitsBesideThroughputWithTheLeadInAndTheLimit() throws IOException {
        RunRecord record = run("mvc");
        Map<String, JsonNode> charts = new HashMap<>();
        ChartData.of(record, dir).path("charts").forEach(c -> charts.put(c.path("id").asText(), c));
        JsonNode jit = charts.get("s0-jit");
        assertEquals(2.0, jit.path("limit").asDouble());
        Map<String, JsonNode> series = new HashMap<>();
        jit.path("series").forEach(s -> series.put(s.path("name").asText(), s));
        assertEquals(13, series.size(), "the lead-in and 6 JVMs x (all, own): " + series.keySet());
        assertEquals("[[-5.0,9.4],[-4.0,4.1],[-2.0,1.2],[-1.0,0.8],[0.0,0.6]]", series.get("lead-in rounds (the most of any block)").path("data").toString());
        assertEquals("[1.0,5.0]", series.get("mvc #2").path("data").get(0).toString(), "(140 + 60) ms over 4 s");
        assertEquals("[4.0,2.0]", series.get("mvc #2").path("data").get(3).toString(), "(20 + 60) ms over 4 s");
        assertEquals("[1.0,3.5]", series.get("mvc #2 own").path("data").get(0).toString());
        assertTrue(series.get("mvc #2 own").path("dashed").asBoolean() && !series.get("mvc #2").path("dashed").asBoolean());
        assertEquals(10, series.get("webflux #1 own").path("data").size());
        Section scenario = ReportContent.of(record).stream().filter(s -> s != null && s.title().equals("Scenario crud")).findFirst().orElseThrow();
        assertEquals(List.of("s0-throughput", "s0-jit"), scenario.charts().subList(0, 2), "beside the throughput");
    }

    /** A hostile target name stays text in the cells, the tables and the chart data. */
    @Test
    void aHostileNameStaysText() throws IOException {
        String evil = "<img src=x onerror=alert(5)>";
        Report.write(dir, run(evil));
        String html = Files.readString(dir.resolve("report.html"));
        assertFalse(html.contains(evil), "raw name in the HTML");
        assertTrue(html.contains("not quiet: &lt;img src=x onerror=alert(5)&gt; set 2 (compiler past 2%"), "escaped in its cell");
    }
}
