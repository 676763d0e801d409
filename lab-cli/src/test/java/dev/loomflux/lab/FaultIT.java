package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.Survival;
import dev.loomflux.lab.result.SweepMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Faults the lab must survive (docs/reliability.md), provoked for real on a running lab. */
class FaultIT {
    @Test
    void targetKilledUnderLoadIsOneFailedResultAndTheNextTargetGoesOn() throws Exception {
        LabCli run = runWhileKilling("run", "loomflux-mvc.jar", "mvc.log", "--targets", "mvc,webflux", "--scenario", "plaintext", "--duration", "8s");
        Path dir = run.dir();
        RunRecord root = Results.record(dir);
        assertEquals("completed", root.header().status());
        Result mvc = root.results().get(0);
        Result webflux = root.results().get(1);
        assertEquals("failed", mvc.outcome().status(), mvc.toString());
        String error = mvc.outcome().error();
        assertTrue(error.startsWith("target exited during the run (code 137: killed by SIGKILL"), error);
        // The quoted lines are the application's last words, not the JVM's start-up chatter.
        assertTrue(error.contains("Started MvcApplication"), error);
        assertFalse(error.contains("jfr,startup"), error);
        assertEquals("ok", webflux.outcome().status(), webflux.toString());
        assertTrue(webflux.load().requests() > 1000, webflux.toString());

        // The dead target's load stops within seconds, not at the end of its 8 s profile (killed 3 s in).
        List<String> log = Files.readAllLines(dir.resolve("run.log"));
        int exited = indexOf(log, "mvc: exited (code 137: killed by SIGKILL (out of memory killer, or kill -9)); stopping its load");
        int next = exited + 1;
        assertTrue(next < log.size(), String.join("\n", log));
        Duration stopped = Duration.between(time(log.get(exited)), time(log.get(next)));
        assertTrue(stopped.toSeconds() <= 5, "after the kill the next line came " + stopped + " later:\n" + String.join("\n", log));
        // Hyperfoil's complaints about the closed port go to driver.log (DriverLogTest), not the console.
        assertTrue(Files.isRegularFile(dir.resolve("driver.log")));
        assertTrue(run.out().lines().count() < 120, "console lines: " + run.out().lines().count() + "\n" + run.out());
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }

    @Test
    void targetKilledDuringItsWarmupIsATargetThatExitedNotAnInterruption() throws Exception {
        // Killed 3 s into a warmup of up to 60 s, before any measurement: a sweep's mvc-vt that ran out of heap at 5,000 users read "interrupted".
        LabCli run = runWhileKilling("run", "loomflux-mvc.jar", "mvc.log", "--targets", "mvc", "--scenario", "plaintext", "--warmup", "60s", "--duration", "5s");
        Result mvc = run.record().results().get(0);
        assertEquals("failed", mvc.outcome().status(), mvc.toString());
        assertTrue(mvc.outcome().error().startsWith("target exited during the run (code 137: killed by SIGKILL"), mvc.toString());
        assertTrue(mvc.outcome().error().contains("Started MvcApplication"), mvc.toString());
        assertTrue(run.out().contains("mvc: exited (code 137"), run.out());
    }

    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void aSweepTargetThatDiesInACellLeavesTheRestToAFreshJvm() throws Exception {
        // The --scale 0.1 map-gateway's mvc-vt ran out of heap in its first cell and its other 19 cells went unmeasured.
        LabCli run = runWhileKilling("sweep", "loomflux-mvc.jar", "mvc.log", "--targets", "mvc", "--scenario", "plaintext",
                "--vary", "users=8,4", "--duration", "8s", "--cell-warmup", "0s");
        Path dir = run.dir();
        RunRecord root = Results.record(dir);
        Result died = root.results().get(0);
        Result after = root.results().get(1);
        assertEquals(8, died.key().cell().get("users"), died.toString());
        assertEquals("failed", died.outcome().status(), died.toString());
        assertTrue(died.outcome().error().startsWith("target exited during the run (code 137: killed by SIGKILL"), died.toString());
        assertEquals(4, after.key().cell().get("users"), after.toString());
        assertEquals("ok", after.outcome().status(), after.toString());
        assertTrue(after.load().requests() > 100, after.toString());
        List<String> log = Files.readAllLines(dir.resolve("run.log"));
        int exited = indexOf(log, "mvc: exited (code 137");
        int fresh = indexOf(log, "mvc: starting a fresh JVM for what is left (plaintext)");
        assertTrue(exited < fresh && fresh < indexOf(log.subList(fresh, log.size()), "mvc: ready in") + fresh, String.join("\n", log));
        assertEquals(2, log.stream().filter(l -> l.contains("mvc: ready in")).count(), String.join("\n", log));
        for (SweepMap.Cell cell : root.summaries().sweep().cells()) {
            boolean unmeasured = cell.unmeasured() != null && cell.unmeasured().contains("mvc");
            assertEquals(cell.at().get("users") == 8, unmeasured, cell.toString());
        }
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }

    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void aDeadStubIsStartedAgainAndVoidsOnlyTheMeasurementItHit() throws Exception {
        LabCli run = runWhileKilling("run", "loomflux-downstream.jar", "mvc-vt.log", "--targets", "mvc-vt,webflux", "--scenario", "gateway",
                "--delay", "5", "--duration", "8s");
        Path dir = run.dir();
        RunRecord root = Results.record(dir);
        Result hit = root.results().get(0);
        Result after = root.results().get(1);
        assertEquals("failed", hit.outcome().status(), hit.toString());
        assertTrue(hit.outcome().error().startsWith("the downstream stub died during the warmup or measurement"), hit.toString());
        assertEquals("ok", after.outcome().status(), after.toString());
        assertEquals(0, after.load().errors().total(), after.toString());
        indexOf(Files.readAllLines(dir.resolve("run.log")), "downstream stub exited (code 137: killed by SIGKILL (out of memory killer, or kill -9)); started again on port");
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }

    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void aDeadDatabaseIsStartedAgainAndVoidsOnlyTheMeasurementItHit() throws Exception {
        LabCli run = runWhileKilling("run", FaultIT::postmaster, "mvc.log", "--targets", "mvc,webflux", "--scenario", "items", "--duration", "8s");
        Path dir = run.dir();
        RunRecord root = Results.record(dir);
        assertEquals("completed", root.header().status());
        Result hit = root.results().get(0);
        Result after = root.results().get(1);
        assertEquals("failed", hit.outcome().status(), hit.toString());
        assertTrue(hit.outcome().error().startsWith("PostgreSQL died during the warmup or measurement and was started again"), hit.toString());
        // The next target reads the re-seeded table of the new server as if nothing had happened.
        assertEquals("ok", after.outcome().status(), after.toString());
        assertTrue(after.load().requests() > 1000, after.toString());
        assertEquals(0, after.load().errors().total(), after.toString());
        int line = indexOf(Files.readAllLines(dir.resolve("run.log")), "PostgreSQL exited (postmaster pid ");
        assertTrue(Files.readAllLines(dir.resolve("run.log")).get(line).contains("started again on port"));
        assertFalse(run.out().contains("Exception"), run.out());
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
        // pg_ctl daemonizes the server, so it is nobody's descendant: look for any process serving this run's data.
        String data = dir.resolve("postgres").toString();
        assertEquals(List.of(), ProcessHandle.allProcesses().filter(h -> h.info().commandLine().orElse("").contains(data))
                .map(h -> h.pid() + " " + h.info().commandLine().orElse("")).toList());
    }

    @Test
    @Tag("slow") // ./check slow, in CI after ./check: 3 min
    void aSpikeThatKillsOneTargetInEveryRoundIsAWinnerOnSurvivalAndLeavesNothingRunning(@TempDir Path tmp) throws Exception {
        // mvc-vt with a 128 MB heap dies under 4,000 users over a 100 ms downstream (as in aTargetOutOfHeap... below); webflux with
        // 512 MB holds them. Six rounds of the whole 12 s shape (its last 2 s down to 400 users, to judge recovery): six deaths,
        // and survival decides at p = 2/924. With fresh-jvms asked for, webflux too runs every block on a JVM of its own.
        Path yaml = tmp.resolve("spike.yaml");
        Files.writeString(yaml, String.join("\n",
                "targets:",
                "  - {name: small, base: mvc-vt, jvm-args: [-Xms128m, -Xmx128m]}",
                "  - webflux",
                "scenarios: [{gateway: {delay: 100}}]",
                "profile: {stages: [{duration: 8s, users: 4000}, {duration: 2s, users: 4000}, {duration: 2s, users: 400}]}",
                "warmup: 0s",
                "design: paired",
                "sets: 1",
                "rounds: 6",
                "fixed-rounds: true",
                "lead-in-rounds: 0",
                "fresh-jvms: true", ""));
        LabCli run = LabCli.of("run", yaml.toString(), "--aot-cache");
        assertEquals(0, run.exitCode(), run.toString());
        RunRecord root = run.record();
        List<BlockRecord> blocks = root.paired().blocks();
        assertEquals(12, blocks.size(), "every round kept, the died blocks too");
        for (BlockRecord b : blocks) {
            assertEquals(b.target().equals("small"), b.died(), b.toString());
            assertTrue(b.shape().peakRssMb() > 64 && b.shape().peakThreads() > 10, b.toString());
            // Errors by cause add up to the block's (a died block's requests after the death were refused).
            assertEquals(b.load().errors(), b.shape().errors() == null ? 0 : b.shape().errors().total(), b.toString());
            if (b.died()) {
                BlockRecord.Death d = b.shape().died();
                assertTrue(d.cause().startsWith("out of heap (heap 128m): java.lang.OutOfMemoryError: Java heap space"), d.cause());
                assertTrue(d.seconds() < 10 && d.openFiles() > 100, d.toString());
            } else {
                assertTrue(b.load().seconds() >= 11.9, "the survivor ran the whole shape: " + b);
                // Its recovery judged after the peak's hold ends at 10 s, against its p99 before 1,000 users: no less than the
                // downstream's 100 ms (a fresh JVM, cold, can take seconds then).
                BlockRecord.Recovery r = b.shape().recovery();
                assertTrue(r != null && r.peakS() == 10 && r.lightP99Ms() >= 100, b.toString());
            }
        }
        Survival survival = root.paired().survival().get(0);
        assertEquals(List.of(6, 0), survival.targets().stream().map(Survival.Target::died).toList());
        assertEquals(54.07, survival.targets().get(0).lowPct(), 0.01);
        assertNull(survival.targets().get(0).recovery(), "no block lived through, none judged");
        assertEquals(6, survival.targets().get(1).recovery().judged());
        Survival.Pair pair = survival.pairs().get(0);
        assertEquals(Survival.WINNER, pair.outcome());
        assertEquals("webflux", pair.winner());
        assertEquals(0.0022, pair.p(), 1e-4);
        // Five fresh JVMs of small, one for each round after its first death; and of webflux, which lived, one for each as asked.
        List<String> log = Files.readAllLines(run.dir().resolve("run.log"));
        assertEquals(6, log.stream().filter(l -> l.contains("small: ready in")).count(), String.join("\n", log));
        assertEquals(5, log.stream().filter(l -> l.contains("small died (code 3): a fresh JVM for its block of round")).count(), String.join("\n", log));
        assertEquals(6, log.stream().filter(l -> l.contains("webflux: ready in")).count(), String.join("\n", log));
        assertEquals(5, log.stream().filter(l -> l.contains("webflux stopped, as --fresh-jvms asks")).count(), String.join("\n", log));
        assertEquals(Boolean.TRUE, root.experiment().design().freshJvms());
        assertEquals("failed", root.results().stream().filter(r -> r.key().target().equals("small")).findFirst().orElseThrow().outcome().status());
        String report = Files.readString(run.dir().resolve("report.md"));
        assertTrue(report.contains("on survival: webflux survives more than small (p = 0.002); small died in 6 of 6 rounds (95% CI 54-100%)."), report);
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }

    @Test
    void aTargetOutOfHeapSaysSoInTheFirstLineOfItsError() throws Exception {
        // As mvc-vt at 10,000 users over a 100 ms downstream with 512 MB, smaller: every request in flight holds a Tomcat processor.
        // Users ramp in, so the target lives a few seconds first and its series shows how it ran out: with all users at
        // once it can die within its first second, before it has a series.
        LabCli run = LabCli.of("run", "--aot-cache", "--design", "sequential", "--targets", "mvc-vt", "--scenario", "gateway", "--delay", "100", "--profile", "stages",
                "--stages", "20s:4000,10s:4000", "--heap", "128m", "--warmup", "0s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        Result r = run.record().results().get(0);
        assertEquals("failed", r.outcome().status(), r.toString());
        String first = r.outcome().error().lines().findFirst().orElse("");
        System.out.println("out of heap: " + first);
        assertEquals("out of heap (heap 128m): java.lang.OutOfMemoryError: Java heap space: target exited during the run (code 3)", first.replaceFirst("; last lines:$", ""));
        assertTrue(run.out().contains("mvc-vt: out of heap (heap 128m): java.lang.OutOfMemoryError: Java heap space; exited (code 3); stopping its load"), run.out());
        assertTrue(run.out().contains("FAILED: out of heap (heap 128m)"), run.out());
        // How it ran out stays: the load and its resources per second up to its death, the report's charts and a line.
        List<Result.PerSecond> series = r.telemetry().series();
        assertTrue(series.size() >= 1, r.toString());
        Result.PerSecond last = series.get(series.size() - 1);
        assertTrue(last.load().users() > 100 && last.target().rssMb() > 64 && last.target().threads() > 10, last.toString());
        String report = Files.readString(run.dir().resolve("report.md"));
        assertTrue(report.contains("It died " + (last.t() + 1) + " s after its first request, at "), report);
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }

    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void aTargetThatNeverAnswersIsGivenUpAfterItsReadyTimeoutAndTheNextGoesOn(@TempDir Path tmp) throws Exception {
        Path yaml = tmp.resolve("never.yaml");
        Files.writeString(yaml, String.join("\n",
                "targets:",
                "  - name: never-ready",
                "    command: [sleep, \"600\"]",
                "    ready: /",
                "    ready-timeout: 3s",
                "  - webflux",
                "scenarios: [plaintext]",
                "profile: {fixed: {users: 4, duration: 3s}}",
                "design: sequential",
                "warmup: 0s",
                "cooldown: 0s", ""));
        LabCli run = LabCli.of("run", yaml.toString(), "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        RunRecord root = run.record();
        Result never = root.results().get(0);
        assertEquals("failed", never.outcome().status(), never.toString());
        assertTrue(never.outcome().error().startsWith("never-ready not ready after 3 s at http://127.0.0.1:"), never.toString());
        assertTrue(run.out().contains("never-ready: did not start: never-ready not ready after 3 s"), run.out());
        assertEquals("ok", root.results().get(1).outcome().status(), root.results().get(1).toString());
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(), "the sleep is stopped");
    }

    @Test
    void aResultsDirectoryThatCannotBeCreatedIsOneLineBeforeAnythingStarts(@TempDir Path home) throws Exception {
        Path real = Path.of(System.getProperty("loomflux.home"));
        for (String module : List.of("targets", "downstream")) {
            Files.createSymbolicLink(home.resolve(module), real.resolve(module));
        }
        // Root writes into read-only directories, so the one thing even root cannot do: a directory inside a file.
        Files.writeString(home.resolve("results"), "a file where the lab keeps its results\n");
        System.setProperty("loomflux.home", home.toString());
        LabCli run;
        try {
            run = LabCli.of("run", "--design", "sequential", "--targets", "mvc", "--scenario", "plaintext", "--duration", "2s", "--warmup", "0s");
        } finally {
            System.setProperty("loomflux.home", real.toString());
        }
        assertEquals(1, run.exitCode(), run.toString());
        assertEquals(1, run.err().strip().lines().count(), run.toString());
        assertTrue(run.err().contains("cannot create the run's results directory " + home.resolve("results") + "/"), run.toString());
        assertTrue(run.err().contains(home.resolve("results") + " exists and is not a directory"), run.toString());
        assertEquals("", run.out(), "nothing started, nothing said");
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }

    /** ./lab {@code command} with a fixed profile of 8 users without warmup, during which {@link #killUnderLoad} SIGKILLs the process running {@code jar}. */
    private static LabCli runWhileKilling(String command, String jar, String targetLog, String... args) throws Exception {
        return runWhileKilling(command, () -> ProcessHandle.current().descendants().filter(h -> h.info().commandLine().orElse("").contains(jar)).findFirst(),
                targetLog, args);
    }

    private static LabCli runWhileKilling(String command, Supplier<Optional<ProcessHandle>> victim, String targetLog, String... args) throws Exception {
        CompletableFuture<Long> killed = CompletableFuture.supplyAsync(() -> killUnderLoad(victim, targetLog));
        // Unpinned: each target JVM starts on both CPUs (4 s instead of 9), and nothing here measures speed.
        List<String> all = new java.util.ArrayList<>(List.of(command, "--aot-cache", "--profile", "fixed", "--users", "8", "--cooldown", "0s", "--no-pin"));
        if (!List.of(args).contains("--warmup")) {
            all.addAll(List.of("--warmup", "0s"));
        }
        all.addAll(List.of("--design", "sequential")); // these faults strike one target at a time
        all.addAll(List.of(args));
        LabCli run = LabCli.of(all.toArray(String[]::new));
        killed.get();
        assertEquals(0, run.exitCode(), run.toString());
        return run;
    }

    /** Waits until the target whose log is named has started and served load for a few seconds, then SIGKILLs the victim. */
    private static long killUnderLoad(Supplier<Optional<ProcessHandle>> victim, String targetLog) {
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline) {
            Optional<ProcessHandle> target = victim.get();
            if (target.isPresent() && started(targetLog)) {
                sleep(Experiment.DEFAULT_IDLE.toMillis() + 3_000); // the lab's idle phase, then 3 s of load
                target.get().destroyForcibly();
                return target.get().pid();
            }
            sleep(200);
        }
        throw new AssertionError("the process to kill, or " + targetLog + "'s start, not seen within 120 s");
    }

    /** The embedded PostgreSQL of the newest run: the first line of its postmaster.pid. */
    private static Optional<ProcessHandle> postmaster() {
        try {
            Path pid = newestRun().resolve("postgres/data/postmaster.pid");
            return Files.isRegularFile(pid) ? ProcessHandle.of(Long.parseLong(Files.readAllLines(pid).get(0).trim())) : Optional.empty();
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Path newestRun() throws java.io.IOException {
        return Results.runDirs().stream().max(Path::compareTo).orElseThrow(() -> new java.io.IOException("no run yet"));
    }

    /** Spring Boot's "Started ..." line in a target's log, in the newest run directory. */
    private static boolean started(String targetLog) {
        try {
            Path log = newestRun().resolve(targetLog);
            String text = Files.isRegularFile(log) ? Files.readString(log) : "";
            return text.contains("Started MvcApplication") || text.contains("Started WebfluxApplication");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no line with '" + text + "' in:\n" + String.join("\n", lines));
    }

    private static LocalTime time(String logLine) {
        return LocalTime.parse(logLine.substring(0, 8));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
