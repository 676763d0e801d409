package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.CpuProfile;
import dev.loomflux.lab.result.FlowRuns;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.ScenarioPart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paired run whose results carry CPU profiles: the scenario's table of µs per request per category, and the summary's
 * sentence under the CPU-per-request winner naming the categories that hold the difference.
 */
class CpuBreakdownReportTest {
    private static final List<String> LABELS = List.of("server-io", "dispatch", "reactor", "vt-scheduling", "json", "db", "http-client", "app", "other");
    /** mvc: 28 µs of CPU per request over 2,800 samples, so 1 µs per 100 samples. */
    static final long[] MVC = {1000, 500, 0, 50, 400, 0, 0, 600, 250};
    /** mvc-vt: 37.8 µs over 3,780 samples, also 1 µs per 100: 6.1 µs more in vt-scheduling, 2.0 in server-io, 1.3 in other, 0.4 elsewhere. */
    static final long[] VT = {1200, 520, 0, 660, 410, 0, 0, 610, 380};
    private static final String CAPTION = "**Where the CPU goes (CPU samples in the measured window, µs of CPU per request)**";

    @TempDir
    Path dir;

    /** A category's µs per request: its share of the samples times the CPU per request, as the run writes it; null CPU, none. */
    static CpuProfile profile(String target, Double cpuUs, long truncated, long[] samples) {
        long n = LongStream.of(samples).sum();
        List<CpuProfile.CategoryShare> categories = new ArrayList<>();
        for (int i = 0; i < samples.length; i++) {
            categories.add(new CpuProfile.CategoryShare(LABELS.get(i), samples[i], Result.round((double) samples[i] / n),
                    cpuUs == null ? null : Result.round(cpuUs * samples[i] / n)));
        }
        return new CpuProfile(target + ".crud.collapsed", "jfr", n, truncated, categories);
    }

    /** mvc ahead of mvc-vt on CPU per request by a ratio of 0.74 (mvc-vt uses 35.1% more), equivalent on throughput. */
    static RunRecord run(CpuProfile mvc, CpuProfile vt) throws IOException {
        return run(mvc, vt, FlowRuns.blocks("mvc", "mvc-vt", 20, null, 1, 7));
    }

    private static RunRecord run(CpuProfile mvc, CpuProfile vt, List<BlockRecord> blocks) throws IOException {
        RunRecord fixture = RunRecord.read(ReportMarkdownTest.PAIRED.resolve("results.json"));
        RunRecord flows = FlowRuns.record(fixture.environment(), "mvc", "mvc-vt", blocks, List.of());
        List<PairComparison> comparisons = List.of(
                new PairComparison("crud", null, ScenarioPart.WHOLE, "throughput", "mvc", "mvc-vt", new PairComparison.RatioEstimate(1.01, List.of(0.98, 1.04), 20),
                new PairComparison.Judgement(PairComparison.EQUIVALENT, null, null), null),
                new PairComparison("crud", null, ScenarioPart.WHOLE, "cpu-per-request", "mvc", "mvc-vt", new PairComparison.RatioEstimate(0.74, List.of(0.72, 0.76), 20),
                new PairComparison.Judgement(PairComparison.A, null, null), null));
        List<Result> results = List.of(flows.results().get(0).withProfile(mvc), flows.results().get(1).withProfile(vt));
        return new RunRecord(flows.header(), flows.environment(), flows.experiment(), results, null,
                new RunRecord.PairedRounds(flows.paired().blocks(), comparisons, null));
    }

    @Test
    void theTableHasEachTargetsMicrosecondsPerCategoryAndTheSummaryNamesWhereTheDifferenceIs() throws IOException {
        Report.write(dir, run(profile("mvc", 28.0, 12, MVC), profile("mvc-vt", 37.8, 0, VT)));
        String md = Files.readString(dir.resolve("report.md"));
        List<String> lines = md.lines().toList();
        int table = lines.indexOf(CAPTION);
        assertTrue(table > 0, md);
        assertEquals(List.of("| target | server-io | dispatch | reactor | vt-scheduling | json | db | http-client | app | other | samples | truncated |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|",
                "| mvc | 10 | 5 | 0 | 0.50 | 4 | 0 | 0 | 6 | 2.50 | 2800 | 12 |",
                "| mvc-vt | 12 | 5.20 | 0 | 6.60 | 4.10 | 0 | 0 | 6.10 | 3.80 | 3780 | 0 |"), lines.subList(table + 2, table + 6));

        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        String sentence = "mvc-vt uses 35.1% more CPU per request than mvc (9.8 µs): vt-scheduling +6.1 µs and server-io +2.0 µs "
                + "(JFR samples, no interval yet).";
        assertTrue(summary.contains("\n- CPU per request: mvc ahead of mvc-vt on CPU per request: 26.0% lower (95% CI 24.0% to 28.0%).\n  - " + sentence + "\n"),
                summary);

        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<caption>Where the CPU goes (CPU samples in the measured window, µs of CPU per request)</caption>"
                + "<thead><tr><th>target</th><th>server-io</th>"), html);
        assertTrue(html.contains("<tr><td>mvc-vt</td><td>12</td><td>5.20</td><td>0</td><td>6.60</td>"), "mvc-vt's row");
        assertTrue(html.contains("<li>" + sentence + "</li>"), "the sentence under the CPU per request line");
    }

    /** Where the loser uses less in one category, the categories where it uses more add up to more than the difference: the sentence says what offsets them. */
    @Test
    void aCategoryWhereTheLoserUsesLessIsNamedAgainstTheOthers() throws IOException {
        long[] vtOffset = {200, 520, 0, 1660, 410, 0, 0, 610, 380};
        Report.write(dir, run(profile("mvc", 28.0, 12, MVC), profile("mvc-vt", 37.8, 0, vtOffset)));
        assertTrue(Files.readString(dir.resolve("report.md")).contains("\n  - mvc-vt uses 35.1% more CPU per request than mvc (9.8 µs): vt-scheduling +16.1 µs"
                + " and other +1.3 µs, against server-io −8.0 µs (JFR samples, no interval yet).\n"));
    }

    /** Profiles that contradict the comparison (the loser's results use less CPU) say so, and split nothing. */
    @Test
    void profilesThatDoNotShowTheDifferenceSplitNothing() throws IOException {
        Report.write(dir, run(profile("mvc", 37.8, 0, VT), profile("mvc-vt", 28.0, 12, MVC)));
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("\n  - mvc-vt uses 35.1% more CPU per request than mvc, yet its results' CPU per request is no higher (28.0 µs against "
                + "37.8 µs): the samples cannot split the difference.\n"), md);
    }

    /**
     * With each block's samples per category, the sentence has each named category's interval over the rounds: the blocks
     * split as the profiles do (a tenth of their samples each, 28 and 37.8 µs of CPU per request, the machine moving both by
     * up to 5% a round), so vt-scheduling +6.1 µs and server-io +2.0 µs are named, and other's +1.3 µs, under the margin
     * (5% of about 33 µs), is not.
     */
    @Test
    void withSamplesPerBlockTheNamedCategoriesCarryIntervalsAndSmallOnesAreLeftOut() throws IOException {
        List<BlockRecord> blocks = new ArrayList<>();
        for (int r = 1; r <= 20; r++) {
            double machine = 1 + 0.05 * Math.sin(r);
            blocks.add(block(r, "mvc", 0.028 * machine, MVC));
            blocks.add(block(r, "mvc-vt", 0.0378 * machine, VT));
        }
        Report.write(dir, run(profile("mvc", 28.0, 12, MVC), profile("mvc-vt", 37.8, 0, VT), blocks));
        String md = Files.readString(dir.resolve("report.md"));
        String summary = md.substring(md.indexOf("## Executive summary"), md.indexOf("## Caveats"));
        assertTrue(summary.matches("(?s).*\n  - mvc-vt uses 35\\.1% more CPU per request than mvc \\(9\\.8 µs\\): vt-scheduling \\+6\\.\\d µs \\(\\+[56]\\.\\d to "
                + "\\+[67]\\.\\d\\) and server-io \\+2\\.\\d µs \\(\\+[12]\\.\\d to \\+2\\.\\d\\) \\(differences over 20 rounds of the blocks' JFR samples, 95% "
                + "intervals that hold together over the 6 categories with samples; named beyond 1\\.6 µs, 5% of the CPU per request\\)\\.\\n.*"), summary);
    }

    private static BlockRecord block(int round, String target, double cpuMs, long[] profile) {
        Map<String, Long> samples = new LinkedHashMap<>();
        for (int i = 0; i < profile.length; i++) {
            samples.put(LABELS.get(i), profile[i] / 10);
        }
        return BlockRecord.builder().scenario("crud").set(1).round(round).position(target.equals("mvc") ? 0 : 1).target(target).users(20).seconds(1)
                .requests(1000).responses(1000).errors(0).rps(1000).p50(1.0).p99(3.0).meanMs(1.0).inFlight(19.8).cpuMsPerRequest(cpuMs).rssMb(300.0)
                .gcMs(1.0).canaryUs(500.0).build().withCategories(samples);
    }

    /** Without a CPU figure a row shows shares of the samples, and a pair with no µs per request on one side gets no sentence. */
    @Test
    void withoutMicrosecondsOnOneSideTheRowShowsSharesAndThePairNoSentence() throws IOException {
        Report.write(dir, run(profile("mvc", 28.0, 12, MVC), profile("mvc-vt", null, 0, VT)));
        String md = Files.readString(dir.resolve("report.md"));
        List<String> lines = md.lines().toList();
        int table = lines.indexOf("**Where the CPU goes (CPU samples in the measured window, µs of CPU per request); a share of the samples where a result "
                + "has no CPU per request**");
        assertTrue(table > 0, md);
        assertEquals("| mvc-vt | 31.7% | 13.8% | 0% | 17.5% | 10.8% | 0% | 0% | 16.1% | 10.1% | 3780 | 0 |", lines.get(table + 5));
        assertFalse(md.contains("uses 35.1% more CPU per request"), md);
        assertFalse(md.contains(CAPTION), "the caption says what the cells are");
    }
}
