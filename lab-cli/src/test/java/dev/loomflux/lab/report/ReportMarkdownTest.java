package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.SweepMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.md from a real run's results.json: the tables carry the fixture's numbers. */
class ReportMarkdownTest {
    static final Path FIXTURE = Path.of("src/test/resources/fixtures/report-3-targets");

    @TempDir
    Path dir;

    static Path copyFixture(Path to) throws IOException {
        return copyFixture(FIXTURE, to);
    }

    static Path copyFixture(Path fixture, Path to) throws IOException {
        try (var files = Files.list(fixture)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    /** A paired run's answer is its comparisons, in words, and its caveats say how it was measured. */
    @Test
    void aPairedRunAnswersWithItsComparisons() throws IOException {
        Report.write(copyFixture(Path.of("src/test/resources/fixtures/paired-json"), dir));
        String md = Files.readString(dir.resolve("report.md"));
        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        assertTrue(summary.startsWith("## Executive summary\n\n**json:** mvc ahead of mvc-vt on throughput by 41.9% (95% CI 39.7% to 44.7%); "
                + "mvc ahead of webflux on throughput by 10.4% (95% CI 7.9% to 13.3%); webflux ahead of mvc-vt on throughput by 29.4% "
                + "(95% CI 24.7% to 33.7%).\n"), summary);
        assertTrue(summary.contains("- p99 latency: p99 undecided between mvc and mvc-vt (mvc/mvc-vt 0.890, 95% CI 0.784-0.998, 20 rounds); "
                + "about 57 rounds would likely settle it;"), summary);
        String caveats = md.substring(md.indexOf("## Caveats"), md.indexOf("## Test configuration"));
        assertTrue(caveats.contains("- Paired design: every target's JVM was started and warmed first, then all were measured in 20 rounds of 4 s blocks"), caveats);
        assertTrue(caveats.contains("- All targets were resident at once; their peak resident memory over the blocks: mvc "), caveats);
        assertTrue(!caveats.contains("Fewer than 3 runs") && !caveats.contains("Little's law"), "one run is an answer here, and no block was paced: " + caveats);
        assertEquals(List.of("json: mvc ahead of mvc-vt on throughput by 41.9% (95% CI 39.7% to 44.7%); mvc ahead of webflux on throughput by 10.4% "
                + "(95% CI 7.9% to 13.3%); webflux ahead of mvc-vt on throughput by 29.4% (95% CI 24.7% to 33.7%)."), Report.headlines(dir));
    }

    @Test
    void tablesMatchTheFixtureCellByCell() throws IOException {
        Report.write(copyFixture(dir));
        List<String> md = Files.readAllLines(dir.resolve("report.md"));
        JsonNode root = Results.tree(dir.resolve("results.json"));
        int checked = 0;
        for (JsonNode r : root.path("results")) {
            String scenario = r.path("scenario").asText();
            List<String> section = md.subList(md.indexOf("## Scenario " + scenario), md.size());
            List<String> latency = row(section, "**Response time (ms)**", r.path("target").asText());
            assertEquals(Cells.num(r.path("latency_ms").path("p99").numberValue()), latency.get(5), scenario + " p99 " + latency);
            assertEquals(Cells.num(r.path("latency_ms").path("mean").numberValue()), latency.get(1), scenario + " avg " + latency);
            List<String> tput = row(section, "**Throughput and reliability**", r.path("target").asText());
            assertEquals(Cells.num(r.path("throughput_rps").numberValue()), tput.get(1), scenario + " rps " + tput);
            assertEquals(r.path("requests").asText(), tput.get(2));
            assertEquals(r.path("errors").path("total").asText(), tput.get(3));
            List<String> jvm = row(section, "**JVM internals over the measured window (JFR)**", r.path("target").asText());
            assertEquals(r.path("jvm").path("gc_pauses").asText(), jvm.get(1));
            assertEquals(Cells.num(r.path("jvm").path("peak_platform_threads").numberValue()), jvm.get(6));
            checked++;
        }
        assertEquals(6, checked);
        String text = String.join("\n", md);
        // Configuration reads as words, not as JSON.
        assertTrue(text.contains("| profile | kind fixed, users 20, duration 5 s |"), text);
        assertTrue(text.contains("| pinning | applied yes, target 0, driver 1, support 1, note pinned with taskset, driver actual 1 |"), text);
        assertTrue(text.contains("spring-boot 4.1.0"), text);
        assertFalse(text.substring(text.indexOf("## Test configuration"), text.indexOf("## Scenario")).contains("{\""), text);
        assertTrue(text.contains("| mvc | steady | 0 to 5.01 | 82.8 - 101 (mean 95.4) | 298 - 454 | 49 | 35 |"), "mvc steady phase row");
        assertTrue(text.contains("Closed model (fixed)"), "closed-model caveat");
        assertTrue(text.contains("| mvc | tomcat | 200 max threads | false | apache-httpclient5 500 | hikaricp 10 |"), "config parity for mvc");
    }

    @Test
    void oneRunRanksTheFiguresAndGivesNoVerdict() throws IOException {
        Report.write(copyFixture(dir));
        String md = Files.readString(dir.resolve("report.md"));
        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        // mvc-vt gateway-delay20 drifted, so its lead is flagged; mvc-vt plaintext never became steady.
        assertTrue(summary.startsWith("## Executive summary\n\n**plaintext:** mvc had the highest throughput (5481 rps) in one run; "
                + "no verdict from one run. Not steady: mvc-vt (see Caveats).\n"), summary);
        assertTrue(summary.contains("**gateway-delay20:** mvc-vt had the highest throughput (794 rps, not steady) in one run; "
                + "no verdict from one run. Not steady: mvc-vt (see Caveats).\n"), summary);
        assertTrue(summary.contains("- Throughput: mvc 5481 rps, mvc-vt 4262 rps (-22.3%, not steady), webflux 3684 rps (-32.8%); "
                + "one run: no verdict (run --repeat 3 for one)\n"), summary);
        assertTrue(summary.contains("- Median latency: webflux 1.07 ms, mvc 2.61 ms (+142.8%), mvc-vt 4.39 ms (+309.2%, not steady); "
                + "one run: no verdict (run --repeat 3 for one)\n"), summary);
        assertEquals(6, summary.split("one run: no verdict", -1).length - 1, "3 metrics x 2 scenarios: " + summary);
        assertFalse(md.toLowerCase(Locale.ROOT).contains("clear"), "no difference is called clear from one run");
    }

    @Test
    void unsteadyResultsBecomeCaveatsAndTheSteadyStateTableHasItsFigures() throws IOException {
        Report.write(copyFixture(dir));
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("- mvc-vt plaintext: not steady after 40.1 s of warmup (JIT compiling 9% of the time (limit 5%); "
                + "throughput trend +14% over 10 s (p = 0.004, limit 10%)); its figures may include JIT warmup. Use a longer --warmup.\n"), md);
        assertTrue(md.contains("- mvc-vt gateway-delay20: drifted while measured (last third vs first: throughput -14%); "
                + "the machine's CPU speed changed -12% meanwhile\n"), md);
        assertFalse(md.contains("- mvc plaintext: not steady") || md.contains("- webflux gateway-delay20: drifted"), "steady results have no caveat");
        List<String> table = md.substring(md.indexOf("## Steady state")).lines().filter(l -> l.startsWith("| ")).toList();
        assertEquals(List.of(
                "| target | scenario | reached | s to steady | JIT during warmup s | JIT while measured ms | throughput drift (last vs first third) |",
                "| mvc | plaintext | yes | 24 (9 of them at 2 users) | 18.3 (2104 compiles) | 12 (3 compiles) | +2.3% |",
                "| mvc | gateway-delay20 | yes | 22 | 9.87 (1650 compiles) | 8 (2 compiles) | +0.9% |",
                "| mvc-vt | plaintext | no | not within 40 s | 31.9 (3012 compiles) | 402 (41 compiles) | +4.1% |",
                "| mvc-vt | gateway-delay20 | yes | 26 | 10.5 (1702 compiles) | 15 (4 compiles) | -14.2%, drifting |",
                "| webflux | plaintext | yes | 21 | 15.1 (1876 compiles) | 21 (5 compiles) | -1.8% |",
                "| webflux | gateway-delay20 | yes | 33 | - | - | -0.4% |"), table.subList(0, 7));
    }

    @Test
    void aWarmupThatNeverRanTheRuleIsStillNotSteady() throws IOException {
        copyFixture(dir);
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        ObjectNode mvcVt = (ObjectNode) root.path("results").get(2).path("steady_state");
        mvcVt.putNull("rule");
        mvcVt.put("warmup_s", 0.0);
        Results.write(dir.resolve("results.json"), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("- mvc-vt plaintext: not steady after 0 s of warmup; its figures may include JIT warmup. Use a longer --warmup.\n"), md);
    }

    @Test
    void aFailedResultIsACaveatAndNotRanked() throws IOException {
        copyFixture(dir);
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        ObjectNode first = (ObjectNode) root.path("results").get(0);
        first.removeAll();
        first.put("target", "mvc").put("scenario", "plaintext").put("status", "failed").put("error", "target exited during the run (code 137)\nlog");
        Results.write(dir.resolve("results.json"), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("- mvc plaintext failed: target exited during the run (code 137)\n"), md);
        assertTrue(md.contains("**plaintext:** mvc-vt had the highest throughput (4262 rps, not steady) in one run; no verdict from one run."), md);
        assertTrue(md.contains("- Throughput: mvc-vt 4262 rps (not steady), webflux 3684 rps (-13.5%); one run"), md);
        assertFalse(md.contains("| mvc | plaintext | yes"), "a failed result has no steady-state row");
    }

    @Test
    void resultsFromBeforeTheSteadyStateCheckAreNotFlagged() throws IOException {
        copyFixture(dir);
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        root.path("results").forEach(r -> ((ObjectNode) r).remove("steady_state"));
        Results.write(dir.resolve("results.json"), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertFalse(md.contains("not steady") || md.contains("## Steady state") || md.contains("drift"), md);
        assertTrue(md.contains("- Throughput: mvc 5481 rps, mvc-vt 4262 rps (-22.3%), webflux 3684 rps (-32.8%); one run"), md);
    }

    @Test
    void withRepeatsTheVerdictsArePrintedAsGiven() throws IOException {
        copyFixture(dir);
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        ((ObjectNode) root.path("experiment")).put("repeat", 3);
        ArrayNode verdicts = ((ObjectNode) root.path("summary")).putArray("verdicts");
        verdicts.addObject().put("scenario", "plaintext").put("metric", "throughput_rps").put("a", "mvc").put("b", "mvc-vt").put("winner", "mvc")
                .put("significant", true).put("text", "mvc ahead by 28.6% (95% CI 20.1% to 35.0%)");
        verdicts.addObject().put("scenario", "plaintext").put("metric", "p99_ms").put("a", "mvc").put("b", "webflux").putNull("winner")
                .put("significant", false).put("text", "no clear difference (95% CI -4.0% to 9.9%)");
        verdicts.addObject().put("scenario", "gateway-delay20").put("metric", "throughput_rps").put("a", "mvc").put("b", "mvc-vt").putNull("winner")
                .put("significant", false).put("text", "not steady: mvc-vt repeat 2 drifted while measured");
        Results.write(dir.resolve("results.json"), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("**plaintext:** mvc serves 1.29x mvc-vt's throughput, no clear difference from webflux; "
                + "median latency: no clear difference; p99: no clear difference. Medians of 3 repeats per target, 95% confidence; "), md);
        assertTrue(md.contains("| plaintext | throughput | mvc vs mvc-vt | mvc ahead by 28.6% (95% CI 20.1% to 35.0%) |\n"), md);
        assertTrue(md.contains("| plaintext | p99 latency | mvc vs webflux | no clear difference (95% CI -4.0% to 9.9%) |\n"), md);
        assertTrue(md.contains("**gateway-delay20:** throughput: "), md);
        assertTrue(md.contains("no verdict against mvc-vt (not steady)") || md.contains("no verdict against mvc (not steady)"), md);
        assertTrue(md.contains("| gateway-delay20 | throughput | mvc vs mvc-vt | not steady: mvc-vt repeat 2 drifted while measured |\n"), md);
        assertTrue(md.contains("- gateway-delay20 throughput_rps, mvc vs mvc-vt: not steady: mvc-vt repeat 2 drifted while measured\n"), md);
        assertFalse(md.contains("one run"), "no single-run wording with repeats");
        assertTrue(md.contains("| mvc | plaintext | 1 | yes | 24 (9 of them at 2 users) |"), "the steady-state table has a repeat column");
    }

    @Test
    void aSweepCellNamesTheTargetsItCouldNotMeasure() {
        SweepMap.Winner w = new SweepMap.Winner("throughput_rps", SweepMap.CLEAR, "mvc-vt", "mvc", 42.0);
        SweepMap.Cell measured = new SweepMap.Cell("gateway", java.util.Map.of("users", 50), List.of(), List.of(w), null);
        SweepMap.Cell partial = new SweepMap.Cell("gateway", java.util.Map.of("users", 50), List.of(), List.of(w), List.of("webflux"));
        assertEquals("mvc-vt by 42%", Cells.label(measured, "throughput_rps"));
        assertEquals("mvc-vt by 42%; webflux not measured", Cells.label(partial, "throughput_rps"));
        assertEquals("-", Cells.label(measured, "p99_ms"));
    }

    @Test
    void repeatedCapacitySearchesLeadWithTheirMedians() throws IOException {
        copyFixture(dir);
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        ((ObjectNode) root.path("experiment")).put("repeat", 3);
        root.remove("summary");
        root.path("results").forEach(r -> ((ObjectNode) r).put("step", 1));
        ArrayNode searches = root.putArray("capacity");
        ArrayNode medians = root.putArray("capacity_summary");
        int[][] rps = {{1000, 1500, 1400}, {2400, 121, 2200}};
        String[] targets = {"mvc", "mvc-vt"};
        for (int t = 0; t < 2; t++) {
            for (int k = 0; k < 3; k++) {
                ObjectNode c = searches.addObject().put("target", targets[t]).put("scenario", "plaintext").put("repeat", k + 1)
                        .put("slo", "p99<50ms").put("capacity_rps", rps[t][k]).put("reached_max", false);
                c.putArray("steps").addObject().put("step", 1).put("offered_rps", 100).put("slo_met", true).put("p99", 12.5);
            }
        }
        medians.addObject().put("target", "mvc").put("scenario", "plaintext").put("slo", "p99<50ms").put("n", 3).put("median_rps", 1400.0)
                .put("min_rps", 1000.0).put("max_rps", 1500.0).put("spread_pct", 35.7).put("reached_max", false);
        medians.addObject().put("target", "mvc-vt").put("scenario", "plaintext").put("slo", "p99<50ms").put("n", 3).put("median_rps", 2200.0)
                .put("min_rps", 121.0).put("max_rps", 2400.0).put("spread_pct", 103.6).put("reached_max", false);
        Results.write(dir.resolve("results.json"), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("**plaintext:** median capacity at p99<50ms: mvc-vt 2200 rps (121-2400), mvc 1400 rps (1000-1500), "
                + "over 3 searches each"), md);
        assertTrue(md.contains("| mvc-vt | plaintext | 3 | 2200 | 121 - 2400 | 104% | p99<50ms |"), md);
        assertTrue(md.contains("| mvc-vt | plaintext | 2 | 121 | p99<50ms | 100 ok |"), "every search is a row with its number: " + md);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("mvc-vt plaintext search 2"), "each search is its own curve");
    }

    /** The cells of the row for a target in the first table after the caption. */
    private static List<String> row(List<String> lines, String caption, String target) {
        int start = lines.indexOf(caption);
        assertTrue(start >= 0, caption);
        for (String l : lines.subList(start, lines.size())) {
            if (l.startsWith("| " + target + " |")) {
                return Arrays.stream(l.substring(1, l.length() - 1).split("\\|")).map(String::trim).toList();
            }
        }
        throw new AssertionError("no row for " + target + " after " + caption);
    }
}
