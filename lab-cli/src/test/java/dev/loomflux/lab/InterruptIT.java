package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C (and SIGTERM) on a real ./lab process (the built jar, as ./lab runs it): SIGINT cannot be sent to the test's own JVM. */
class InterruptIT {
    /** SIGINT is Ctrl-C; SIGTERM is how a CI runner or a container stop ends the lab: the same cleanup, exit 128 + signal. */
    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void aStopSignalEndsTheRunWithinSecondsKeepsFinishedResultsAndLeavesNoProcess(String signal, int exitCode, @TempDir Path tmp) throws Exception {
        Path console = tmp.resolve("console.txt");
        Set<Path> before = Results.runDirs();
        // A terminal's Ctrl-C reaches a process whose SIGINT is at its default. A test run from a background job (CI,
        // nohup ... &) inherits SIGINT ignored, and the JVM keeps it ignored; perl puts it back to default before the exec.
        Process lab = LabProcess.start(console, "run", "--aot-cache", "--design", "sequential", "--targets", "mvc-vt", "--scenario", "plaintext,json", "--profile", "fixed",
                "--users", "8", "--duration", "3s", "--warmup", "0s", "--cooldown", "0s", "--name", "interrupt-it",
                "--memory", "1g", "--no-pin");
        try {
            // The first scenario is measured and written; the second is under load when Ctrl-C comes.
            LabProcess.awaitLine(console, "mvc-vt json: measuring", 120);
            Thread.sleep(2_000);
            List<ProcessHandle> children = lab.descendants().toList();
            assertTrue(children.size() >= 1, "the lab's children: " + children);
            long sent = System.nanoTime();
            new ProcessBuilder("kill", "-" + signal, Long.toString(lab.pid())).start().waitFor();
            assertTrue(lab.waitFor(10, TimeUnit.SECONDS), "the lab still runs 10 s after SIG" + signal);
            double seconds = (System.nanoTime() - sent) / 1e9;
            String out = Files.readString(console);
            System.out.printf("the lab exited %.2f s after SIG%s%n", seconds, signal);
            assertEquals(exitCode, lab.exitValue(), out);
            assertTrue(seconds <= 3.0, "SIG" + signal + " took " + seconds + " s\n" + out);
            assertEquals(List.of(), children.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::info).toList(), "left behind");
            // The memory limit's cgroup (named after the lab's pid) is gone too.
            assertEquals(List.of(), groupsOf(lab.pid()), "cgroups left behind");
            Path dir = Results.one(Results.madeSince(before), out);
            assertTrue(out.contains("interrupted: 1 finished result(s) kept in " + dir.resolve("results.json")), "stopped in " + seconds + " s\n" + out);
            RunRecord root = Results.record(dir);
            assertEquals("interrupted", root.header().status());
            Result first = root.results().get(0);
            assertEquals("mvc-vt plaintext", first.target() + " " + first.scenario());
            assertEquals("ok", first.outcome().status(), first.toString());
            assertTrue(first.load().requests() > 100, first.toString());
        } finally {
            lab.descendants().forEach(ProcessHandle::destroyForcibly);
            lab.destroyForcibly();
        }
    }

    /**
     * SIGKILL leaves the lab no say: the kernel kills its children (setpriv --pdeathsig), its guard kills the rest
     * (PostgreSQL, daemonized by pg_ctl). With the guard SIGKILLed too (a whole process tree killed at once) the
     * postmaster is left, and ./lab clean stops it. Either way the dead run is found and marked abandoned.
     */
    @ParameterizedTest
    @CsvSource({"false", "true"})
    void aSigkilledLabLeavesNoProcessOfItsRunAndIsFoundAbandoned(boolean guardKilledToo, @TempDir Path tmp) throws Exception {
        Path console = tmp.resolve("console.txt");
        Set<Path> before = Results.runDirs();
        Process lab = LabProcess.start(console, "run", "--aot-cache", "--design", "sequential", "--targets", "mvc,webflux", "--scenario", "items", "--profile", "fixed",
                "--users", "20", "--duration", "20s", "--warmup", "0s", "--cooldown", "0s", "--name", "killed-it", "--no-pin");
        Path dir;
        List<ProcessHandle> started;
        ProcessHandle postmaster;
        try {
            LabProcess.awaitLine(console, "mvc items-page0-size20: measuring", 120);
            Thread.sleep(2_000);
            dir = Results.one(Results.madeSince(before), Files.readString(console));
            postmaster = ProcessHandle.of(Long.parseLong(Files.readAllLines(dir.resolve("postgres/data/postmaster.pid")).get(0).trim())).orElseThrow();
            started = new java.util.ArrayList<>(lab.descendants().toList());
            started.add(postmaster);
            started.addAll(postmaster.children().toList());
            List<ProcessHandle> kill = new java.util.ArrayList<>(List.of(lab.toHandle()));
            if (guardKilledToo) {
                kill.addAll(lab.children().filter(h -> h.info().commandLine().orElse("").contains("guard")).toList());
                assertEquals(1, kill.size() - 1, "the guard among " + lab.children().map(ProcessHandle::info).toList());
            }
            long backends = postmaster.children().filter(h -> cmdline(h).startsWith("postgres: loomflux")).count();
            System.out.printf("SIGKILL to the lab%s: %d processes of its run, PostgreSQL with %d connections from the target%n",
                    guardKilledToo ? " and its guard" : "", started.size(), backends);
            assertTrue(backends >= 10, "mvc's pool of 10 connections: " + backends);
            kill.forEach(ProcessHandle::destroyForcibly);
            assertTrue(lab.waitFor(5, TimeUnit.SECONDS));
            Thread.sleep(5_000);
        } finally {
            lab.descendants().forEach(ProcessHandle::destroyForcibly);
            lab.destroyForcibly();
        }
        String out = Files.readString(console);
        assertEquals("running", Results.record(dir).header().status(), out);
        List<ProcessHandle> left = started.stream().filter(ProcessHandle::isAlive).toList();
        LabCli next;
        if (guardKilledToo) {
            // The target was the lab's child: the kernel killed it. The postmaster is nobody's child, and only it (with its backends) is left.
            assertTrue(left.contains(postmaster), "left: " + left.stream().map(ProcessHandle::info).toList());
            assertTrue(left.stream().noneMatch(h -> h.info().commandLine().orElse("").contains("loomflux-mvc.jar")), left.toString());
            next = LabCli.of("clean");
            assertEquals(0, next.exitCode(), next.toString());
            assertTrue(next.out().contains("stopped what it left running: postgres (pid " + postmaster.pid() + ")"), next.toString());
            // Killed, they stay zombies until init reaps them: that can take a moment.
            long deadline = System.currentTimeMillis() + 5_000;
            while (started.stream().anyMatch(ProcessHandle::isAlive) && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
        } else {
            assertEquals(List.of(), left.stream().map(ProcessHandle::info).toList(), "alive 5 s after the lab was SIGKILLed");
            assertTrue(Files.readString(dir.resolve("guard.log")).contains("killed postgres (pid " + postmaster.pid() + ")"));
            next = LabCli.of("run", "--aot-cache", "--design", "sequential", "--targets", "mvc", "--scenario", "plaintext", "--profile", "fixed",
                    "--users", "4", "--duration", "1s", "--warmup", "0s", "--cooldown", "0s", "--no-pin");
            assertEquals(0, next.exitCode(), next.toString());
        }
        assertTrue(next.out().contains("run " + dir.getFileName() + " (lab pid " + lab.pid() + ") died without finishing: "), next.toString());
        assertTrue(next.out().contains("its results.json is marked abandoned"), next.toString());
        assertEquals("abandoned", Results.record(dir).header().status());
        assertEquals(List.of(), started.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::info).toList());
        assertFalse(Files.exists(dir.resolve("postgres/data")), "the dead server's data is removed");
        // Found once: the next look finds nothing.
        assertEquals("clean: no run died with anything left to stop", LabCli.of("clean").out().strip());
    }

    /** PostgreSQL rewrites its processes' argv ("postgres: user db host idle"), which ProcessHandle.Info does not show. */
    private static String cmdline(ProcessHandle h) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(h.pid()), "cmdline")).replace('\0', ' ');
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static List<Path> groupsOf(long pid) throws Exception {
        List<Path> out = new java.util.ArrayList<>();
        for (String hierarchy : List.of("cpu", "cpuacct", "memory")) {
            try (var dirs = Files.walk(Path.of("/sys/fs/cgroup", hierarchy), 3)) {
                dirs.filter(d -> d.getFileName().toString().matches("loomflux-.*-" + pid)).forEach(out::add);
            } catch (java.io.IOException e) {
                // no such hierarchy here
            }
        }
        return out;
    }
}
