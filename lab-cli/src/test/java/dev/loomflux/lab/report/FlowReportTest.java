package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.FlowRuns;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.verdict.Comparisons;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paired crud run's report: the matrix has a row per pair for the flow and for each step, named by its request, the summary
 * a line per step, the scenario a table of its flow's steps per target, and how each target's copy of table item grew.
 */
class FlowReportTest {
    @TempDir
    Path dir;

    /** webflux's read step 20% slower than mvc's. */
    private RunRecord run() throws IOException {
        List<BlockRecord> blocks = FlowRuns.blocks("mvc", "webflux", 20, "read", 1.2, 7);
        RunRecord fixture = RunRecord.read(ReportMarkdownTest.PAIRED.resolve("results.json"));
        return FlowRuns.record(fixture.environment(), "mvc", "webflux", blocks, Comparisons.of(blocks, List.of("mvc", "webflux")));
    }

    /**
     * The same run with webflux's JIT compiler threads at 12% of a CPU over its blocks in 16 of the 20 rounds (600 ms of 5 s):
     * without those pairs 4 rounds would be too few, so every round is judged within what that JIT could have moved it (36% a
     * round), which tells nothing from a 20% step, and the summary names the JVM and what to set.
     */
    @Test
    void aJvmStillCompilingThroughTheRoundsGivesNoVerdictAndTheReportSaysWhy() throws IOException {
        List<BlockRecord> blocks = FlowRuns.blocks("mvc", "webflux", 20, "read", 1.2, 7).stream().map(b -> {
            BlockRecord.Resources r = b.resources();
            double own = b.target().equals("webflux") && b.round() <= 16 ? 600.0 : 20.0;
            return new BlockRecord(b.turn(), b.load(), b.latency(), new BlockRecord.Resources(r.cpuMsPerRequest(), r.rssMb(), r.gcMs(), r.jitMs(),
                    r.canaryUs(), own, 0.0), b.flows(), b.categories(), b.agents(), b.shape());
        }).toList();
        RunRecord fixture = RunRecord.read(ReportMarkdownTest.PAIRED.resolve("results.json"));
        Report.write(dir, FlowRuns.record(fixture.environment(), "mvc", "webflux", blocks, Comparisons.of(blocks, List.of("mvc", "webflux"))));
        String md = Files.readString(dir.resolve("report.md"));
        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        assertTrue(summary.contains("webflux's JIT compiled past 2% of a CPU in the blocks of 16 of 20 rounds; without them too few would be left, so "
                + "every round is judged, each of those allowed to be off by what its JITs could have moved it (3x the compile share): no verdict "
                + "(a longer --warmup or more --lead-in-rounds lets the JIT finish first)"), summary);
        assertFalse(summary.contains(" ahead of "), "no winner: " + summary);
    }

    @Test
    void theMatrixHasARowPerFlowAndStepNamedByItsRequest() throws IOException {
        RunRecord run = run();
        Report.write(dir, run);
        String md = Files.readString(dir.resolve("report.md"));
        List<String> lines = md.lines().toList();
        assertTrue(md.contains("| scenario, flow or step: a / b | Throughput (higher is better) | Median latency (lower is better) | p99 latency (lower is better) "
                + "| CPU per request (lower is better) |"), md);
        List<String> matrix = lines.stream().filter(l -> l.startsWith("| crud")).toList();
        assertEquals(List.of("crud", "crud/create (POST /items)", "crud/read (GET /items/${id})", "crud/update (PUT /items/${id})",
                "crud/delete (DELETE /items/${id})"), matrix.stream().map(l -> l.substring(2, l.indexOf(": mvc / webflux"))).toList(), md);
        String read = matrix.get(2);
        List<String> cells = List.of(read.substring(1, read.length() - 1).split("\\|")).stream().map(String::trim).toList();
        assertTrue(cells.get(2).startsWith("mvc better: 0.8") && cells.get(3).startsWith("mvc better: 0.8"), "the slow step's latencies: " + read);
        assertEquals("-", cells.get(4), "a step has no CPU per request of its own");

        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        assertTrue(summary.contains("**crud:** mvc and webflux equivalent on crud flow throughput within 5%"), summary);
        assertTrue(summary.contains("\n- crud/read: mvc and webflux equivalent on GET /items/${id} throughput within 5% (mvc/webflux 1.0"), summary);
        assertTrue(summary.contains("mvc ahead of webflux on GET /items/${id} median latency: 1"), summary);
        assertTrue(summary.contains("- Errors: webflux 3 (0.00% of requests)"), "the steps' own failures are errors: " + summary);
        assertTrue(summary.contains("- Table item: each target wrote into its own copy, 10,000 rows when reset before its load; after it mvc 10,012 (+12), "
                + "webflux 10,009 (+9)."), summary);
        String html = Files.readString(dir.resolve("report.html"));
        assertEquals(run.paired().comparisons().size(), html.split("<g class=\"row\"", -1).length - 1, "a forest row per comparison");
        assertTrue(html.contains("data-label=\"crud/create (POST /items): p99 latency, mvc / webflux\""), "the forest names the step by its request");
    }

    @Test
    void theScenarioHasATablePerFlowAndOneOfItsRows() throws IOException {
        Report.write(dir, run());
        List<String> lines = Files.readString(dir.resolve("report.md")).lines().toList();
        int flow = lines.indexOf("**Flow crud: whole iterations (completed per second, first request sent to last response) and each step**");
        assertTrue(flow > 0, String.join("\n", lines));
        assertEquals("| step | request | target | rps | p50 ms | p90 ms | p99 ms | max ms | completed or responses | failed | connect | timeout | 4xx | 5xx "
                + "| unexpected status | missing value |", lines.get(flow + 2));
        assertEquals(List.of("| whole iteration |  | mvc | 1400 | 14.3 | 28.6 | 42.9 | 114 | 140000 | 0 |  |  |  |  |  |  |",
                        "| whole iteration |  | webflux | 1400 | 14.3 | 28.6 | 42.9 | 114 | 140000 | 3 |  |  |  |  |  |  |",
                        "| create | POST /items | mvc | 1400 | 4 | 8 | 12 | 32 | 140000 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |",
                        "| create | POST /items | webflux | 1400 | 4 | 8 | 12 | 32 | 140003 | 3 | 0 | 0 | 0 | 0 | 0 | 3 (step create: no $.id in the response) |"),
                lines.subList(flow + 4, flow + 8));
        assertEquals("| delete | DELETE /items/${id} | webflux | 1400 | 3 | 6 | 9 | 24 | 140000 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |", lines.get(flow + 13));
        int rows = lines.indexOf("**Table item: each target's own copy, reset before the load and counted after it (rows left: creates no delete followed)**");
        assertTrue(rows > flow, String.join("\n", lines));
        assertEquals(List.of("| target | rows at reset | rows after | growth |", "|---|---|---|---|", "| mvc | 10000 | 10012 | +12 |",
                "| webflux | 10000 | 10009 | +9 |"), lines.subList(rows + 2, rows + 6));
    }
}
