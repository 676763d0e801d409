package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.verdict.RepeatVerdicts;
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
    /** A paired run of the default experiment: three targets, one scenario, 20 rounds, one set of JVMs. */
    static final Path PAIRED = Path.of("src/test/resources/fixtures/paired-json");

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

    /** A paired capacity (./lab capacity, 3 targets, 10 rungs): the answer is its ratios, then each target's bracket and every rung. */
    static final Path LADDER = Path.of("src/test/resources/fixtures/capacity-ladder");

    @Test
    void aCapacityLadderAnswersWithItsRatiosAndShowsEveryRung() throws IOException {
        Report.write(copyFixture(LADDER, dir));
        String md = Files.readString(dir.resolve("report.md"));
        String answer = md.substring(0, md.indexOf("## Executive summary"));
        assertTrue(answer.contains("gateway-delay20: mvc/mvc-vt capacity 1.477 (95% CI 1.297-2.379): mvc holds more; mvc/webflux capacity 1.189"), answer);
        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        assertTrue(summary.contains("mvc holds 8724 rps, misses 9514 (95% CI 8724-9514)"), summary);
        assertFalse(summary.contains("Throughput:"), "no per-metric lines of a single run: " + summary);
        String caveats = md.substring(md.indexOf("## Caveats"), md.indexOf("## Test configuration"));
        assertFalse(caveats.contains("not steady after 0 s"), "a rung's JVMs come warm from the one before: " + caveats);
        String section = md.substring(md.indexOf("## Capacity at the SLO, in paired rounds"));
        assertTrue(section.contains("| mvc | 8724 | 9514 | 8724 - 9514 | 11314 rps: 11303 good/s | 16000 rps: 12864 good/s |"), section);
        // Past its knee mvc-vt served fewer requests than at it: 5575 and 4817 good/s at 1.5x and 2x its 5657.
        assertTrue(section.contains("| mvc-vt | 5657 | 6727 | 4000 - 6727 | 8724 rps: 5575 good/s | 11314 rps: 4817 good/s |"), section);
        assertTrue(section.contains("| mvc / mvc-vt | 1.477 | 1.297 - 2.379 | a |"), section);
        // Every rung, lowest first, with each target's outcome there: ten rungs.
        assertEquals(10, section.lines().filter(l -> l.matches("\\| [0-9]+ \\| (holds|misses).*")).count(), section);
        assertTrue(section.contains("| 8000 | holds, 35.3 ms, 7993 good/s | misses, 5404 good/s | misses, 50.3 ms, 7993 good/s |"), section);
    }

    /** The peer's smooth spike in rounds (6 rounds, mvc-vt out of heap in each): survival leads the answer, then the ratios. */
    static final Path SPIKE = Path.of("src/test/resources/fixtures/spike-survival");

    @Test
    void aSpikeThatKillsATargetAnswersWithSurvivalFirstAndSaysHowItDied() throws IOException {
        Report.write(copyFixture(SPIKE, dir));
        String md = Files.readString(dir.resolve("report.md"));
        String answer = md.substring(0, md.indexOf("## Executive summary"));
        assertTrue(answer.contains("chain-delay100-depth0: on survival: mvc survives more than mvc-vt (p = 0.002); webflux survives more than mvc-vt "
                + "(p = 0.002); webflux-vt survives more than mvc-vt (p = 0.002); mvc-vt died in 6 of 6 rounds (95% CI 54-100%)."), answer);
        assertTrue(answer.contains("| mvc / webflux |"), "the matrix of the blocks lived through follows: " + answer);
        assertFalse(answer.contains("mvc / mvc-vt |"), "no ratio from mvc-vt's died blocks: " + answer);
        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        assertTrue(summary.contains("Among the blocks lived through: webflux ahead of mvc on throughput by 47.5%"), summary);
        String config = md.substring(md.indexOf("## Test configuration"));
        assertTrue(config.contains("| design | paired: 6 rounds of blocks of the whole stages load per target after 1 lead-in round |"), config);
        String section = md.substring(md.indexOf("## Survival and recovery"));
        assertTrue(section.contains("| mvc-vt | 6 of 6 | 54-100% | out of heap (heap 512m): java.lang.OutOfMemoryError: Java heap space: target exited in its block "
                + "(code 3) (6) |"), section);
        assertTrue(section.contains("| webflux | 0 of 6 | 0-46% | survived |"), section);
        assertTrue(section.contains("| mvc / webflux | neither died | 1.000 |"), section);
        assertTrue(section.contains("| mvc-vt / webflux | webflux survives more | 0.002 |"), section);
    }

    /** A paired run's answer is its comparisons, in words, and its caveats say how it was measured. */
    @Test
    void aPairedRunAnswersWithItsComparisons() throws IOException {
        Report.write(copyFixture(PAIRED, dir));
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
        assertTrue(md.contains("| warmup / cooldown / sets | "), "a paired run's JVMs are sets: " + md);
        assertEquals(List.of("json: mvc ahead of mvc-vt on throughput by 41.9% (95% CI 39.7% to 44.7%); mvc ahead of webflux on throughput by 10.4% "
                + "(95% CI 7.9% to 13.3%); webflux ahead of mvc-vt on throughput by 29.4% (95% CI 24.7% to 33.7%)."), Report.headlines(dir));
    }

    /**
     * The default run: the paired design with two sets of JVMs, whose summary over the sets says "too few
     * repeats" for every pair. Rendered from the record in memory (the directory has no results.json):
     * the matrix opens the report, and nothing contradicts it or says a sentence twice.
     */
    @Test
    void theDefaultRunOpensWithItsMatrixAndNothingContradictsIt() throws IOException {
        RunRecord record = twoSets();
        assertTrue(record.summaries().summary().verdicts().stream().allMatch(v -> v.text().startsWith("too few repeats")), "the default run's summary over sets");
        try (var files = Files.list(PAIRED)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".hlog")).toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        Report.write(dir, record);
        assertFalse(Files.exists(dir.resolve("results.json")), "rendered from memory");
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.startsWith("# loomflux report: 20261125-110743-default-json\n\n**The answer: ratio a / b over the rounds, with its 95% interval; "
                + "a win needs the interval wholly beyond ±5%, equivalent wholly within**\n\n"
                + "| a / b | Throughput (higher is better) | Median latency (lower is better) | p99 latency (lower is better) | CPU per request (lower is better) |\n"
                + "|---|---|---|---|---|\n"
                + "| mvc / mvc-vt | mvc better: 1.419 (1.397-1.447) | mvc better: 0.648 (0.636-0.661) | undecided: 0.890 (0.784-0.998) "
                + "| mvc better: 0.704 (0.695-0.716) |\n"
                + "| mvc / webflux | mvc better: 1.104 (1.079-1.133) | webflux better: 3.751 (3.600-3.874) | mvc better: 0.438 (0.344-0.581) "
                + "| mvc better: 0.901 (0.881-0.922) |\n"
                + "| mvc-vt / webflux | webflux better: 0.773 (0.748-0.802) | webflux better: 5.799 (5.529-5.962) | mvc-vt better: 0.508 (0.439-0.583) "
                + "| webflux better: 1.281 (1.235-1.326) |\n\n## Executive summary\n"), md);
        String html = Files.readString(dir.resolve("report.html"));
        for (String page : List.of(md, html)) {
            assertFalse(page.contains("too few repeats"), "no verdict over 2 sets beside the comparisons");
            assertFalse(page.contains("Repeats: medians") || page.contains("Verdicts (medians of repeats)"), "no repeats table in a paired run");
        }
        assertEquals(1, md.split("mvc ahead of mvc-vt on throughput by 41\\.9%", -1).length - 1, "the throughput sentence once: " + md);
        assertTrue(md.contains("| target | set | avg | p50 |"), "a paired run numbers its sets of JVMs, not repeats");
        assertTrue(html.indexOf("<section class=\"answer\">\n<table>") < html.indexOf("<h2>"), "the matrix opens report.html too");
        assertEquals(12, html.split("<g class=\"row\"", -1).length - 1, "a forest row per pair and metric");
        // The series of the paired design are per block, without threads or open files: those charts are left out.
        assertTrue(html.contains("id=\"s0-rss\"") && !html.contains("id=\"s0-threads\"") && !html.contains("id=\"s0-fds\""), "charts with data only");
        assertEquals(List.of("json: mvc ahead of mvc-vt on throughput by 41.9% (95% CI 39.7% to 44.7%); mvc ahead of webflux on throughput by 10.4% "
                + "(95% CI 7.9% to 13.3%); webflux ahead of mvc-vt on throughput by 29.4% (95% CI 24.7% to 33.7%)."), Report.headlines(record));
    }

    /** Each clause of the summary reads at a glance; why a pair stays undecided goes on the line below it. */
    @Test
    void theSummarySaysEachComparisonShortlyAndTheWhyBelow() throws IOException {
        copyFixture(PAIRED, dir);
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        String note = "the JVMs of one target sit at levels of their own, which rounds do not average out (+-6.1% on this ratio): "
                + "more sets of JVMs (--repeat) would tell";
        ObjectNode p99 = (ObjectNode) root.path("comparisons").get(6);
        p99.remove("rounds_to_settle");
        p99.put("note", note);
        Results.write(dir.resolve("results.json"), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("- p99 latency: p99 undecided between mvc and mvc-vt (mvc/mvc-vt 0.890, 95% CI 0.784-0.998, 20 rounds); "
                + "mvc ahead of webflux on p99: 56.2% lower (95% CI 41.9% to 65.6%); mvc-vt ahead of webflux on p99: 49.2% lower "
                + "(95% CI 41.7% to 56.1%).\n  - mvc vs mvc-vt: " + note + ".\n"), md);
        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        for (String line : summary.lines().filter(l -> l.startsWith("- ") || l.startsWith("**")).toList()) {
            for (String clause : line.replaceFirst("^(- [^:]+|\\*\\*[^*]+\\*\\*): ", "").split("; ")) {
                assertTrue(clause.split(" ").length <= 20, "at most 20 words: " + clause);
            }
        }
        assertTrue(Files.readString(dir.resolve("report.html")).contains("<li>p99 latency: p99 undecided between mvc and mvc-vt (mvc/mvc-vt 0.890, "
                + "95% CI 0.784-0.998, 20 rounds); mvc ahead of webflux"), "the detail nests under its bullet");
        assertTrue(Files.readString(dir.resolve("report.html")).contains("<ul class=\"detail\"><li>mvc vs mvc-vt: the JVMs of one target"),
                "the detail nests under its bullet");
    }

    @Test
    void oneRunPerTargetSaysInOneLineThatNothingWasCompared() throws IOException {
        Report.write(copyFixture(dir));
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.startsWith("# loomflux report: 20261122-121000-report-fixture\n\nNothing compared: one run per target gives no verdict "
                + "(--repeat 3 or --design paired gives one).\n"), md);
        assertFalse(Files.readString(dir.resolve("report.html")).contains("id=\"forest\""), "no forest without comparisons");
    }

    /** A pinned virtual thread is shown with the whole stack of its first event at that frame, leaf first. */
    @Test
    void pinningShowsItsStack() throws IOException {
        copyFixture(dir);
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        ObjectNode jvm = (ObjectNode) root.path("results").get(1).path("jvm");
        String target = root.path("results").get(1).path("target").asText();
        jvm.put("pinned_events", 3);
        ArrayNode frames = jvm.putArray("pinned_top_frames");
        ObjectNode frame = frames.addObject().put("frame", "app.Cache.<clinit> line 12").put("count", 3);
        frame.putArray("stack").add("app.Cache.<clinit> line 12").add("app.Handler.get line 40").add("java.lang.VirtualThread.run line 329");
        Results.write(dir.resolve("results.json"), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("| " + target + " | app.Cache.<clinit> line 12 | 3 | app.Cache.<clinit> line 12 < app.Handler.get line 40"
                + " < java.lang.VirtualThread.run line 329 |"), md);
        assertTrue(Files.readString(dir.resolve("report.html")).contains("app.Cache.&lt;clinit&gt; line 12"), "escaped in the HTML");
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

    /** A sequential run with repeats opens with the matrix of its verdicts: a / b is the inverse of B's median relative to A's. */
    @Test
    void withRepeatsTheMatrixComesFromTheVerdicts() throws IOException {
        copyFixture(dir);
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        ((ObjectNode) root.path("experiment")).put("repeat", 3);
        ArrayNode verdicts = ((ObjectNode) root.path("summary")).putArray("verdicts");
        verdicts.addObject().put("scenario", "plaintext").put("metric", "throughput_rps").put("a", "mvc").put("b", "mvc-vt").put("winner", "mvc")
                .put("diff_pct", -22.2).put("ci_low_pct", -26.0).put("ci_high_pct", -16.7).put("significant", true)
                .put("text", "mvc ahead by 28.6% (95% CI 20.1% to 35.0%)");
        verdicts.addObject().put("scenario", "plaintext").put("metric", "p99_ms").put("a", "mvc").put("b", "webflux").putNull("winner")
                .put("diff_pct", 2.0).put("ci_low_pct", -4.0).put("ci_high_pct", 9.9).put("significant", false)
                .put("text", "no clear difference (95% CI -4.0% to 9.9%)");
        verdicts.addObject().put("scenario", "gateway-delay20").put("metric", "throughput_rps").put("a", "mvc").put("b", "mvc-vt").putNull("winner")
                .put("diff_pct", 1.0).put("significant", false).put("text", "not steady: mvc-vt repeat 2 drifted while measured");
        Results.write(dir.resolve("results.json"), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.startsWith("# loomflux report: 20261122-121000-report-fixture\n\n**The answer: ratio a / b of the medians of 3 repeats, "
                + "with its 95% interval; a winner leads by 5% or more**\n\n"
                + "| scenario: a / b | Throughput (higher is better) | p99 latency (lower is better) |\n|---|---|---|\n"
                + "| plaintext: mvc / mvc-vt | mvc better: 1.285 (1.200-1.351) | - |\n"
                + "| plaintext: mvc / webflux | - | undecided: 0.980 (0.910-1.042) |\n"
                + "| gateway-delay20: mvc / mvc-vt | not steady: 0.990 | - |\n\n## Executive summary\n"), md);
        assertFalse(md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats")).contains("| pair |"), "the verdicts' table is a detail now");
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

    /** A target that closes its connections (Tomcat's max-keep-alive-requests) is named with its rate; the others kept theirs. */
    @Test
    void aTargetThatClosesConnectionsIsNamed() throws IOException {
        ObjectNode root = (ObjectNode) Results.tree(PAIRED.resolve("results.json"));
        for (JsonNode r : root.path("results")) {
            long responses = r.path("responses").asLong();
            ((ObjectNode) r).put("reconnections", r.path("target").asText().equals("mvc") ? responses / 100 : 0);
        }
        String caveats = String.join("\n", Caveats.of(RunRecord.fromTree(root)).stream().map(Paragraph::text).toList());
        assertTrue(caveats.contains("Connections closed by the server (Connection: close), each reopened by the driver and counted, not an error: "
                + "mvc 1 per 100 responses. mvc-vt, webflux kept theirs open"), caveats);
        for (JsonNode r : root.path("results")) {
            ((ObjectNode) r).put("reconnections", 0);
        }
        assertFalse(String.join("\n", Caveats.of(RunRecord.fromTree(root)).stream().map(Paragraph::text).toList())
                .contains("Connection: close"), "no target closed a connection: nothing to say");
    }

    /** The paired fixture as the default run records it: a second set of JVMs beside the first, and the summary over both sets. */
    private static RunRecord twoSets() throws IOException {
        ObjectNode root = (ObjectNode) Results.tree(PAIRED.resolve("results.json"));
        ((ObjectNode) root.path("experiment")).put("repeat", 2);
        ArrayNode results = (ArrayNode) root.path("results");
        for (int i = 0, n = results.size(); i < n; i++) {
            ObjectNode second = results.get(i).deepCopy();
            results.add(second.put("repeat", 2).put("throughput_rps", second.path("throughput_rps").asDouble() * 0.97));
        }
        ArrayNode blocks = (ArrayNode) root.path("blocks");
        for (int i = 0, n = blocks.size(); i < n; i++) {
            ObjectNode second = blocks.get(i).deepCopy();
            blocks.add(second.put("set", 2).put("rps", second.path("rps").asDouble() * 0.97));
        }
        RunRecord record = RunRecord.fromTree(root);
        List<String> targets = record.experiment().targets().stream().map(ExperimentDescription.TargetDescription::name).toList();
        List<String> scenarios = record.experiment().scenarios().stream().map(ExperimentDescription.ScenarioDescription::name).toList();
        root.set("summary", Json.tree(RepeatVerdicts.of(record.results(), targets, scenarios)));
        return RunRecord.fromTree(root);
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
