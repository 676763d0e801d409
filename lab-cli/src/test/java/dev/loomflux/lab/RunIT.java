package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        JsonNode root = results(run);
        assertEquals(RunRecord.SCHEMA, root.path("schema").asInt());
        assertEquals("sequential", root.path("experiment").path("design").path("kind").asText());
        assertTrue(root.path("blocks").isMissingNode() && root.path("comparisons").isMissingNode(), "a sequential run has no rounds");
        assertEquals("completed", root.path("status").asText());
        assertEquals(Files.readString(rules), Files.readString(resultsDir(run).resolve("profile-rules.tsv")), "the run keeps the user's rules for its report");
        JsonNode env = root.path("environment");
        assertTrue(env.path("jdk").path("targets").asText().matches("2[1-9].*|[3-9][0-9].*"), env.toString());
        assertFalse(env.path("pinning").path("applied").asBoolean(true), env.toString());
        // --aot-cache: each target ran from its extracted jar with the cache, which the JVM mapped (it logs an error when not).
        assertTrue(root.path("experiment").path("jvm_flags").toString().contains("-XX:AOTCache="), root.path("experiment").toString());
        assertFalse(run.out().contains("started without its --aot-cache"), run.out());
        for (String target : new String[] {"mvc-vt", "webflux"}) {
            String log = Files.readString(resultsDir(run).resolve(target + ".log"));
            assertTrue(log.contains("/target/aot/loomflux-"), target + " ran from the fat jar:\n" + log.lines().limit(10).toList());
            assertFalse(log.contains("[error][aot]"), log);
        }
        assertEquals("fixed", root.path("experiment").path("profile").path("kind").asText());
        assertEquals(6, root.path("results").size());
        for (JsonNode r : root.path("results")) {
            String where = r.path("target").asText() + " repeat " + r.path("repeat").asInt();
            assertEquals("ok", r.path("status").asText(), where);
            assertTrue(r.path("requests").asLong() > 100, where + " requests " + r.path("requests"));
            assertTrue(r.path("throughput_rps").asDouble() > 50, where);
            JsonNode lat = r.path("latency_ms");
            for (String p : new String[] {"mean", "p50", "p90", "p95", "p99", "p999", "max"}) {
                assertTrue(lat.path(p).asDouble() > 0, where + " latency " + p);
            }
            assertTrue(lat.path("p50").asDouble() <= lat.path("p99").asDouble() && lat.path("p99").asDouble() <= lat.path("max").asDouble(), lat.toString());
            assertEquals(0, r.path("errors").path("total").asLong(), where);
            assertEquals(0, r.path("cache_hits").asLong(), where);
            JsonNode profile = r.path("profile");
            assertTrue(profile.path("samples").asLong() > 0, where + ": " + profile);
            for (JsonNode c : profile.path("categories")) {
                assertEquals(c.path("category").asText().equals("other") ? profile.path("samples").asLong() : 0, c.path("samples").asLong(),
                        where + ": --cpu-profile-rules put every sample in other: " + profile);
            }
            assertTrue(r.path("bytes").path("received").asLong() > r.path("responses").asLong() * 13, where + " bytes");
            assertTrue(r.path("series").size() >= 2, where + " series " + r.path("series"));
            JsonNode second = r.path("series").get(0);
            for (String f : new String[] {"t", "rps", "p50", "p99", "errors", "users"}) {
                assertTrue(second.has(f), where + " series field " + f);
            }
            assertTrue(r.path("startup_ms").asLong() > 0, where);
            // 2 s of warmup cannot satisfy a rule that looks at 20 s: measured, but in no verdict.
            JsonNode steady = r.path("steady_state");
            assertFalse(steady.path("reached").asBoolean(), where + " " + steady);
            assertFalse(steady.path("steady").asBoolean(), where);
            assertTrue(steady.path("rule").path("reasons").get(0).asText().startsWith("only "), where + " " + steady.path("rule"));
            assertTrue(steady.path("series").size() >= 1 && steady.path("warmup_s").asDouble() >= 1.5, where + " " + steady);
            assertTrue(steady.path("jit").path("warmup").path("compiles").asLong() > 0, where + " JIT compiles in warmup " + steady.path("jit"));
            // Schema 2 leaves out a figure a second did not get; the run as a whole must have them.
            java.util.List<JsonNode> seconds = new java.util.ArrayList<>();
            r.path("series").forEach(seconds::add);
            assertTrue(seconds.stream().anyMatch(x -> x.path("jit_ms").isNumber()) && seconds.stream().anyMatch(x -> x.path("canary_us").isNumber()),
                    where + " series " + r.path("series"));
            assertTrue(r.path("driver").has("saturated"), where);
            assertTrue(r.path("target_config").path("jvm").path("available_processors").asInt() > 0, where + " target_config");
            // Scaling out: the benchmark the run executed, as YAML that Hyperfoil's own parser accepts.
            String yaml = Files.readString(resultsDir(run).resolve(r.path("plan").asText()));
            io.hyperfoil.core.parser.BenchmarkParser parser = io.hyperfoil.core.parser.BenchmarkParser.instance();
            io.hyperfoil.api.config.Benchmark benchmark = parser.buildBenchmark(
                    parser.createSource(yaml, io.hyperfoil.api.config.BenchmarkData.EMPTY), java.util.Map.of());
            assertEquals(1, benchmark.phases().size(), where + " " + benchmark.phases());
            assertTrue(yaml.contains("/plaintext"), yaml);
            Path hlog = resultsDir(run).resolve(r.path("hlog").asText());
            assertEquals(r.path("responses").asLong(), hlogCount(hlog), where + " hlog count");
            java.util.List<String> csv = Files.readAllLines(resultsDir(run).resolve(r.path("series_csv").asText()));
            assertTrue(csv.get(0).startsWith("t,rps,p50,p99,errors,users,cpu_pct,rss_mb,threads,fds"), where + " csv header " + csv.get(0));
            assertEquals(r.path("series").size() + 1, csv.size(), where + " csv rows");
        }
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
        assertRepeatsSummarized(run, root);
    }

    /** The profiles that end by a request count or keep a schedule; stages and burst are driven for real by LoadDriverIT. */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void loopsAndRateProfilesRunEndToEnd() throws IOException {
        JsonNode loops = profileRun("--profile", "loops", "--users", "4", "--requests", "50");
        assertEquals(200, loops.path("responses").asLong(), loops.toString());
        JsonNode rate = profileRun("--profile", "rate", "--rps", "200", "--duration", "3s", "--max-in-flight", "50");
        assertEquals(false, rate.path("behind_schedule").asBoolean(), rate.toString());
        assertTrue(Math.abs(rate.path("requests").asLong() - 600) <= 60, "rate 200/s for 3 s sent " + rate.path("requests"));
        assertEquals(200, rate.path("series").get(1).path("intended").asLong(), rate.path("series").toString());
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
        JsonNode root = results(run);
        assertEquals("jmeter", root.path("experiment").path("driver").asText());
        assertEquals("5.6.3", root.path("environment").path("versions").path("jmeter").asText());
        JsonNode r = root.path("results").get(0);
        assertEquals("ok", r.path("status").asText(), r.toString());
        assertEquals(0, r.path("errors").path("total").asLong(), r.toString());
        assertEquals(r.path("requests").asLong(), r.path("responses").asLong(), r.toString());
        assertEquals(10, r.path("in_flight").asDouble(), 1, "Little's law: " + r);
        assertTrue(r.path("series").size() >= 3, r.toString());
        String plan = Files.readString(resultsDir(run).resolve(r.path("plan").asText()));
        assertTrue(r.path("plan").asText().endsWith(".jmx") && plan.contains("<ThreadGroup"), plan);
        assertTrue(Files.readString(resultsDir(run).resolve("report.md")).contains("| load driver | Apache JMeter 5.6.3"), "the report names the driver");
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(), "no JMeter left");
    }

    /** #29's run: a controller here and two agents share every target's load (9 users: 5 and 4), and the report shows each one's part. */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void jmeterAgentsShareEveryTargetsLoad() throws IOException {
        LabCli run = LabCli.of("run", "--aot-cache", "--driver", "jmeter", "--agents", "2", "--design", "sequential", "--targets", "mvc", "--scenario", "gateway", "--delay", "20",
                "--users", "9", "--duration", "4s", "--warmup", "4s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        JsonNode root = results(run);
        assertEquals("sequential", root.path("experiment").path("design").path("kind").asText(), "JMeter's default design");
        String report = Files.readString(resultsDir(run).resolve("report.md"));
        assertTrue(report.contains("| load driver | Apache JMeter 5.6.3, non-GUI, a controller here and 2 agents"), report);
        for (JsonNode r : root.path("results")) {
            assertEquals("ok", r.path("status").asText(), r.toString());
            assertEquals(0, r.path("errors").path("total").asLong(), r.toString());
            JsonNode agents = r.path("driver").path("agents");
            assertEquals(2, agents.size(), r.toString());
            long requests = 0;
            double inFlight = 0;
            double agentsCpu = 0;
            for (JsonNode a : agents) {
                requests += a.path("requests").asLong();
                inFlight += a.path("in_flight").asDouble();
                agentsCpu += a.path("cpu_pct_mean").asDouble();
                assertTrue(a.path("cpu_pct_mean").asDouble() > 0, "each agent reported its CPU: " + a);
                // Its own latency log holds its responses, as the result's holds them all.
                assertEquals(a.path("responses").asLong(), hlogCount(resultsDir(run).resolve(a.path("hlog").asText())), a.toString());
                assertTrue(report.contains("| " + r.path("target").asText() + " | " + a.path("agent").asText() + " | " + a.path("requests").asLong() + " |"),
                        "the report's row of " + a + ":\n" + report);
            }
            assertEquals(r.path("requests").asLong(), requests, "the agents' parts add up: " + r);
            // The driver's CPU, read from /proc, counts the lab, the controller and these local agents: the agents' own
            // reports are a part of it (their windows differ by up to a second's edges, hence the margin).
            double driverCpu = r.path("driver").path("cpu_pct_mean").asDouble();
            assertTrue(agentsCpu <= driverCpu * 1.2 + 10, "agents " + agentsCpu + "% of a core, the driver with them " + driverCpu + "%: " + r);
            assertEquals(r.path("in_flight").asDouble(), inFlight, 0.05, r.toString());
            assertEquals(9, r.path("in_flight").asDouble(), 1.5, "Little's law over both agents: " + r);
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

    private static JsonNode profileRun(String... profile) throws IOException {
        LabCli run = LabCli.of(concat(new String[] {"run", "--design", "sequential", "--targets", "webflux", "--scenario", "json", "--warmup", "0s", "--cooldown", "0s", "--no-pin"}, profile));
        assertEquals(0, run.exitCode(), run.toString());
        JsonNode r = results(run).path("results").get(0);
        assertEquals("ok", r.path("status").asText(), run.toString());
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
    private static void assertRepeatsSummarized(LabCli run, JsonNode root) {
        assertEquals(3, root.path("experiment").path("repeat").asInt());
        java.util.List<String> order = new java.util.ArrayList<>();
        for (JsonNode r : root.path("results")) {
            order.add(r.path("target").asText() + r.path("repeat").asInt());
            assertEquals("ok", r.path("status").asText(), r.toString());
            assertTrue(Files.isRegularFile(resultsDir(run).resolve(r.path("hlog").asText())), r.path("hlog").asText());
        }
        // Mirrored rounds (A B, B A, A B) give both targets the same mean slot.
        assertEquals(java.util.List.of("mvc-vt1", "webflux1", "webflux2", "mvc-vt2", "mvc-vt3", "webflux3"), order);
        JsonNode summary = root.path("summary");
        assertEquals(6, summary.path("estimates").size(), summary.toString());
        for (JsonNode e : summary.path("estimates")) {
            assertEquals(3, e.path("n").asInt(), e.toString());
            double median = e.path("median").asDouble();
            assertTrue(e.path("min").asDouble() <= e.path("ci_low").asDouble() && e.path("ci_low").asDouble() <= median
                    && median <= e.path("ci_high").asDouble() && e.path("ci_high").asDouble() <= e.path("max").asDouble(), e.toString());
        }
        assertEquals(3, summary.path("verdicts").size(), summary.toString());
        // 2 s of warmup leaves no result steady, so however far apart the medians are, no verdict.
        for (JsonNode v : summary.path("verdicts")) {
            assertFalse(v.path("significant").asBoolean(), v.toString());
            assertTrue(v.path("text").asText().startsWith("not steady: mvc-vt repeat 1, mvc-vt repeat 2, mvc-vt repeat 3, webflux repeat 1"), v.toString());
        }
        assertTrue(run.out().contains("verdict plaintext throughput_rps, mvc-vt vs webflux: "), run.out());
    }

    private static Path resultsDir(LabCli run) {
        return Results.file(run.out()).getParent();
    }

    private static JsonNode results(LabCli run) throws IOException {
        Path file = resultsDir(run).resolve("results.json");
        assertTrue(Files.isRegularFile(file), file.toString());
        JsonNode root = Results.tree(file);
        assertFalse(root.path("results").isEmpty(), root.toString());
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
