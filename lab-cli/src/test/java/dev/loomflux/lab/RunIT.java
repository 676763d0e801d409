package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.CpuProfile;
import dev.loomflux.lab.result.DriverCheck;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SteadyState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** ./lab run end to end: real targets, real Hyperfoil, every profile, short durations. */
class RunIT {
    /**
     * One run, three fresh JVMs per target (six starts are most of its time, so unpinned: a JVM starts
     * faster on both CPUs than on one; TelemetryIT checks pinning): every result as documented, then the
     * repeats' summary.
     */
    @Test
    void fixedProfileRepeatedOnTwoTargetsWritesTheDocumentedResultsAndSummary() throws Exception {
        // A user's rules come before the lab's: these claim every frame's package for "other", so every sample is there.
        Path rules = Files.createTempFile("rules", ".tsv");
        Files.writeString(rules, "# everything is other\n" + Stream.of("java.", "jdk.", "sun.", "com.", "org.", "io.", "reactor.", "dev.", "kotlin.")
                .map(prefix -> "other\t" + prefix).collect(Collectors.joining("\n")));
        LabCli run = LabCli.of("run", "--aot-cache", "--design", "sequential", "--targets", "mvc-vt,webflux", "--scenario", "plaintext", "--profile", "fixed",
                "--users", "8", "--duration", "3s", "--warmup", "2s", "--cooldown", "0s", "--repeat", "3", "--no-pin", "--cpu-profile-rules", rules.toString());
        assertEquals(0, run.exitCode(), run.toString());
        RunRecord root = results(run);
        // The console names the run's results.json.
        assertTrue(run.out().contains("results: " + run.dir().resolve("results.json")), run.out());
        assertEquals(RunRecord.SCHEMA, root.header().schema());
        assertEquals("sequential", root.experiment().design().kind());
        assertTrue(root.paired().blocks() == null && root.paired().comparisons() == null, "a sequential run has no rounds");
        assertEquals("completed", root.header().status());
        assertEquals(Files.readString(rules), Files.readString(run.dir().resolve("profile-rules.tsv")), "the run keeps the user's rules for its report");
        Environment env = root.environment();
        assertTrue(env.jdk().targets().matches("2[1-9].*|[3-9][0-9].*"), env.toString());
        assertFalse(env.pinning().applied(), env.toString());
        // --aot-cache: each target ran from its extracted jar with the cache, which the JVM mapped (it logs an error when not).
        assertTrue(root.experiment().jvmFlags().stream().anyMatch(f -> f.contains("-XX:AOTCache=")), root.experiment().toString());
        assertFalse(run.out().contains("started without its --aot-cache"), run.out());
        for (String target : new String[] {"mvc-vt", "webflux"}) {
            String log = Files.readString(run.dir().resolve(target + ".log"));
            assertTrue(log.contains("/target/aot/loomflux-"), target + " ran from the fat jar:\n" + log.lines().limit(10).toList());
            assertFalse(log.contains("[error][aot]"), log);
        }
        assertEquals("fixed", root.experiment().profile().kind());
        assertEquals(6, root.results().size());
        for (Result r : root.results()) {
            String where = r.target() + " repeat " + r.key().repeat();
            assertEquals("ok", r.outcome().status(), where);
            assertTrue(r.load().requests() > 100, where + " requests " + r.load().requests());
            assertTrue(r.load().throughputRps() > 50, where);
            Result.Latency lat = r.load().latencyMs();
            Map<String, Double> figures = new LinkedHashMap<>();
            figures.put("mean", lat.mean());
            for (String p : new String[] {"p50", "p90", "p95", "p99", "p999"}) {
                figures.put(p, lat.at(p));
            }
            figures.put("max", lat.max());
            figures.forEach((p, v) -> assertTrue(v != null && v > 0, where + " latency " + p));
            assertTrue(lat.p50() <= lat.p99() && lat.p99() <= lat.max(), lat.toString());
            assertEquals(0, r.load().errors().total(), where);
            assertEquals(0L, r.load().cacheHits(), where);
            CpuProfile profile = r.telemetry().profile();
            assertTrue(profile.samples() > 0, where + ": " + profile);
            for (CpuProfile.CategoryShare c : profile.categories()) {
                assertEquals(c.category().equals("other") ? profile.samples() : 0, c.samples(),
                        where + ": --cpu-profile-rules put every sample in other: " + profile);
            }
            assertTrue(r.load().bytes().received() > r.load().responses() * 13, where + " bytes");
            List<Result.PerSecond> series = r.telemetry().series();
            assertTrue(series.size() >= 2, where + " series " + series);
            // t, rps, errors and users are numbers every second has; p50 and p99 are left out of a second without a response.
            Result.PerSecond second = series.get(0);
            assertNotNull(second.load().p50(), where + " series field p50");
            assertNotNull(second.load().p99(), where + " series field p99");
            assertTrue(r.visit().startupMs() > 0, where);
            // 2 s of warmup cannot satisfy a rule that looks at 20 s: measured, but in no verdict.
            SteadyState steady = r.checks().steadyState();
            assertFalse(steady.reached(), where + " " + steady);
            assertFalse(steady.steady(), where);
            assertTrue(steady.rule().reasons().get(0).startsWith("only "), where + " " + steady.rule());
            assertTrue(steady.series().size() >= 1 && steady.warmupS() >= 1.5, where + " " + steady);
            assertTrue(steady.jit().warmup().compiles() > 0, where + " JIT compiles in warmup " + steady.jit());
            // Schema 2 leaves out a figure a second did not get; the run as a whole must have them.
            assertTrue(series.stream().anyMatch(x -> x.jit().jitMs() != null) && series.stream().anyMatch(x -> x.beside().canaryUs() != null),
                    where + " series " + series);
            assertNotNull(r.checks().driver(), where);
            assertTrue(r.visit().targetConfig().jvm().availableProcessors() > 0, where + " target_config");
            // Scaling out: the benchmark the run executed, as YAML that Hyperfoil's own parser accepts.
            String yaml = Files.readString(run.dir().resolve(r.files().plan()));
            io.hyperfoil.core.parser.BenchmarkParser parser = io.hyperfoil.core.parser.BenchmarkParser.instance();
            io.hyperfoil.api.config.Benchmark benchmark = parser.buildBenchmark(
                    parser.createSource(yaml, io.hyperfoil.api.config.BenchmarkData.EMPTY), java.util.Map.of());
            assertEquals(1, benchmark.phases().size(), where + " " + benchmark.phases());
            assertTrue(yaml.contains("/plaintext"), yaml);
            Path hlog = run.dir().resolve(r.files().hlog());
            assertEquals(r.load().responses(), hlogCount(hlog), where + " hlog count");
            java.util.List<String> csv = Files.readAllLines(run.dir().resolve(r.files().seriesCsv()));
            assertTrue(csv.get(0).startsWith("t,rps,p50,p99,errors,users,cpu_pct,rss_mb,threads,fds"), where + " csv header " + csv.get(0));
            assertEquals(series.size() + 1, csv.size(), where + " csv rows");
        }
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
        assertRepeatsSummarized(run, root);
    }

    /** The profiles that end by a request count or keep a schedule; stages and burst are driven for real by LoadDriverIT. */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void loopsAndRateProfilesRunEndToEnd() throws IOException {
        Result loops = profileRun("--profile", "loops", "--users", "4", "--requests", "50");
        assertEquals(200L, loops.load().responses(), loops.toString());
        Result rate = profileRun("--profile", "rate", "--rps", "200", "--duration", "3s", "--max-in-flight", "50");
        assertEquals(false, rate.load().behindSchedule(), rate.toString());
        assertTrue(Math.abs(rate.load().requests() - 600) <= 60, "rate 200/s for 3 s sent " + rate.load().requests());
        assertEquals(200L, rate.telemetry().series().get(1).load().intended(), rate.telemetry().series().toString());
    }

    /**
     * The same run under the second driver: JMeter, assembled by the build, run as a process on the plan rendered from the
     * profile, read back into the same seconds and results. Little's law holds as under Hyperfoil (docs/scale-out.md,
     * "The same experiment under both drivers").
     */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void jmeterDrivesASequentialRunIntoTheSameResults() throws IOException {
        LabCli run = LabCli.of("run", "--aot-cache", "--driver", "jmeter", "--design", "sequential", "--targets", "mvc", "--scenario", "gateway", "--delay", "20",
                "--users", "10", "--duration", "4s", "--warmup", "4s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        RunRecord root = results(run);
        assertEquals("jmeter", root.experiment().driver());
        assertEquals("5.6.3", root.environment().versions().get("jmeter"));
        Result r = root.results().get(0);
        assertEquals("ok", r.outcome().status(), r.toString());
        assertEquals(0, r.load().errors().total(), r.toString());
        assertEquals(r.load().requests(), r.load().responses(), r.toString());
        assertEquals(10, r.load().inFlight(), 1, "Little's law: " + r);
        assertTrue(r.telemetry().series().size() >= 3, r.toString());
        String plan = Files.readString(run.dir().resolve(r.files().plan()));
        assertTrue(r.files().plan().endsWith(".jmx") && plan.contains("<ThreadGroup"), plan);
        assertTrue(Files.readString(run.dir().resolve("report.md")).contains("| load driver | Apache JMeter 5.6.3"), "the report names the driver");
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(), "no JMeter left");
    }

    /** #29's run: a controller here and two agents share every target's load (9 users: 5 and 4), and the report shows each one's part. */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void jmeterAgentsShareEveryTargetsLoad() throws IOException {
        LabCli run = LabCli.of("run", "--aot-cache", "--driver", "jmeter", "--agents", "2", "--design", "sequential", "--targets", "mvc", "--scenario", "gateway", "--delay", "20",
                "--users", "9", "--duration", "4s", "--warmup", "4s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        RunRecord root = results(run);
        assertEquals("sequential", root.experiment().design().kind(), "JMeter's default design");
        String report = Files.readString(run.dir().resolve("report.md"));
        assertTrue(report.contains("| load driver | Apache JMeter 5.6.3, non-GUI, a controller here and 2 agents"), report);
        for (Result r : root.results()) {
            assertEquals("ok", r.outcome().status(), r.toString());
            assertEquals(0, r.load().errors().total(), r.toString());
            List<DriverCheck.Agent> agents = r.checks().driver().agents();
            assertEquals(2, agents.size(), r.toString());
            long requests = 0;
            double inFlight = 0;
            double agentsCpu = 0;
            for (DriverCheck.Agent a : agents) {
                requests += a.requests();
                inFlight += a.inFlight();
                agentsCpu += a.cpuPctMean();
                assertTrue(a.cpuPctMean() > 0, "each agent reported its CPU: " + a);
                // Its own latency log holds its responses, as the result's holds them all.
                assertEquals(a.responses(), hlogCount(run.dir().resolve(a.hlog())), a.toString());
                assertTrue(report.contains("| " + r.target() + " | " + a.agent() + " | " + a.requests() + " |"),
                        "the report's row of " + a + ":\n" + report);
            }
            assertEquals(r.load().requests(), requests, "the agents' parts add up: " + r);
            // The driver's CPU, read from /proc, counts the lab, the controller and these local agents: the agents' own
            // reports are a part of it (their windows differ by up to a second's edges, hence the margin).
            double driverCpu = r.checks().driver().cpuPctMean();
            assertTrue(agentsCpu <= driverCpu * 1.2 + 10, "agents " + agentsCpu + "% of a core, the driver with them " + driverCpu + "%: " + r);
            assertEquals(r.load().inFlight(), inFlight, 0.05, r.toString());
            assertEquals(9, r.load().inFlight(), 1.5, "Little's law over both agents: " + r);
        }
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(), "no JMeter agent left");
    }

    @Test
    void badAgentFlagsAreOneLineErrors() {
        assertBad(LabCli.of("run", "--agents", "2"), "--agents: JMeter's agents; add --driver jmeter");
        assertBad(LabCli.of("run", "--driver", "jmeter", "--agents", "0"), "--agents 0: expected 1..8 local agents");
        assertBad(LabCli.of("run", "--driver", "jmeter", "--agents", "loader1"), "--agents loader1: 'loader1' is not HOST:PORT");
        assertBad(LabCli.of("run", "--driver", "jmeter", "--agents", "127.0.0.1:1099"), "--agents 127.0.0.1:1099: agents on other hosts need --agent-keystore");
        assertBad(LabCli.of("run", "--driver", "jmeter", "--agents", "127.0.0.1:1099", "--agent-keystore", "no-such.p12"), "--agent-keystore no-such.p12: no such readable file");
        assertBad(LabCli.of("run", "--driver", "jmeter", "--design", "paired", "--profile", "rate", "--rps", "10"), "--driver jmeter: the paired design's rate blocks need the Hyperfoil driver");
    }

    private static Result profileRun(String... profile) throws IOException {
        LabCli run = LabCli.of(concat(new String[] {"run", "--design", "sequential", "--targets", "webflux", "--scenario", "json", "--warmup", "0s", "--cooldown", "0s", "--no-pin"}, profile));
        assertEquals(0, run.exitCode(), run.toString());
        Result r = results(run).results().get(0);
        assertEquals("ok", r.outcome().status(), run.toString());
        return r;
    }

    @Test
    void badRunFlagsAreOneLineErrors() {
        assertBad(LabCli.of("run", "--profile", "fixed", "--rps", "10"), "--rps does not apply to --profile fixed");
        assertBad(LabCli.of("run", "--profile", "rate"), "--rps: required by the rate profile");
        assertBad(LabCli.of("run", "--profile", "stages", "--stages", "10s"), "--stages 10s: expected TIME:USERS");
        assertBad(LabCli.of("run", "--scenario", "gateway", "--delay", "100000"), "--scenario: delay 100000 is out of range 0..5000");
        assertBad(LabCli.of("run", "--scenario", "soap"), "--scenario: unknown scenario 'soap'");
        assertBad(LabCli.of("run", "--duration", "forever"), "--duration forever: expected a duration");
        assertBad(LabCli.of("run", "--target-cpus", "99"), "--target-cpus 99: CPUs must be within");
        assertBad(LabCli.of("run", "no-such-file.yaml"), "no-such-file.yaml: no such experiment file");
        assertBad(LabCli.of("run", "seed-00"), "seed-00: ambiguous, matches seed-000-k6-stages.yaml");
        assertBad(LabCli.of("run", "seed-9"), "seed-9: no such experiment file or preset (presets: cpu-quotas, example, flow-crud, map-cpu, map-db, map-gateway, own-app, peer-10k-depth-1, peer-10k, ");
        assertBad(LabCli.of("run", "seed-003", "--scale", "0"), "--scale 0.0: expected a factor above 0");
        assertBad(LabCli.of("run", "../experiments/example.yaml", "--scenario", "json"), "--scenario cannot be combined with an experiment file");
    }

    private static void assertBad(LabCli run, String expected) {
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().contains(expected), run.toString());
        assertEquals(1, run.err().strip().lines().count(), run.toString());
    }

    /** Mirrored fresh targets, each with its own files; medians with CIs; verdicts withheld from results that are not steady. */
    private static void assertRepeatsSummarized(LabCli run, RunRecord root) {
        assertEquals(3, root.experiment().repeat());
        java.util.List<String> order = new java.util.ArrayList<>();
        for (Result r : root.results()) {
            order.add(r.target() + r.key().repeat());
            assertEquals("ok", r.outcome().status(), r.toString());
            assertTrue(Files.isRegularFile(run.dir().resolve(r.files().hlog())), r.files().hlog());
        }
        // Mirrored rounds (A B, B A, A B) give both targets the same mean slot.
        assertEquals(java.util.List.of("mvc-vt1", "webflux1", "webflux2", "mvc-vt2", "mvc-vt3", "webflux3"), order);
        RepeatSummary summary = root.summaries().summary();
        assertEquals(6, summary.estimates().size(), summary.toString());
        for (RepeatSummary.Median e : summary.estimates()) {
            assertEquals(3, e.n(), e.toString());
            double median = e.median();
            assertTrue(e.min() <= e.ciLow() && e.ciLow() <= median && median <= e.ciHigh() && e.ciHigh() <= e.max(), e.toString());
        }
        assertEquals(3, summary.verdicts().size(), summary.toString());
        // 2 s of warmup leaves no result steady, so however far apart the medians are, no verdict.
        for (RepeatSummary.PairVerdict v : summary.verdicts()) {
            assertFalse(v.significant(), v.toString());
            assertTrue(v.text().startsWith("not steady: mvc-vt repeat 1, mvc-vt repeat 2, mvc-vt repeat 3, webflux repeat 1"), v.toString());
        }
        assertTrue(run.out().contains("verdict plaintext throughput_rps, mvc-vt vs webflux: "), run.out());
    }

    private static RunRecord results(LabCli run) throws IOException {
        Path file = run.dir().resolve("results.json");
        assertTrue(Files.isRegularFile(file), file.toString());
        RunRecord root = RunRecord.read(file);
        assertFalse(root.results().isEmpty(), root.toString());
        return root;
    }

    private static long hlogCount(Path hlog) throws IOException {
        assertNotNull(hlog);
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        long count = 0;
        Histogram h;
        while ((h = (Histogram) reader.nextIntervalHistogram()) != null) {
            count += h.getTotalCount();
        }
        reader.close();
        return count;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
