package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C (and SIGTERM) on a real ./lab process (the built jar, as ./lab runs it): SIGINT cannot be sent to the test's own JVM. */
class InterruptIT {
    private static final Pattern KEPT = Pattern.compile("interrupted: (\\d+) finished result\\(s\\) kept in (\\S+results\\.json)");

    /** SIGINT is Ctrl-C; SIGTERM is how a CI runner or a container stop ends the lab: the same cleanup, exit 128 + signal. */
    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void aStopSignalEndsTheRunWithinSecondsKeepsFinishedResultsAndLeavesNoProcess(String signal, int exitCode, @TempDir Path tmp) throws Exception {
        Path home = Path.of(System.getProperty("loomflux.home")).toAbsolutePath();
        Path console = tmp.resolve("console.txt");
        // A terminal's Ctrl-C reaches a process whose SIGINT is at its default. A test run from a background job (CI,
        // nohup ... &) inherits SIGINT ignored, and the JVM keeps it ignored; perl puts it back to default before the exec.
        Process lab = new ProcessBuilder("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\"",
                ProcessHandle.current().info().command().orElse("java"),
                "-Dloomflux.home=" + home, "-jar", home.resolve("lab-cli/target/loomflux-lab.jar").toString(),
                "run", "--design", "sequential", "--targets", "mvc-vt", "--scenario", "plaintext,json", "--profile", "fixed",
                "--connections", "8", "--duration", "3s", "--warmup", "0s", "--cooldown", "0s", "--name", "interrupt-it",
                "--memory", "1g", "--no-pin")
                .redirectErrorStream(true).redirectOutput(console.toFile()).start();
        try {
            // The first scenario is measured and written; the second is under load when Ctrl-C comes.
            awaitLine(console, "mvc-vt json: measuring", 120);
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
            Matcher kept = KEPT.matcher(out);
            assertTrue(kept.find(), "stopped in " + seconds + " s\n" + out);
            assertEquals("1", kept.group(1), out);
            JsonNode root = new ObjectMapper().readTree(Path.of(kept.group(2)).toFile());
            assertEquals("interrupted", root.path("status").asText());
            JsonNode first = root.path("results").get(0);
            assertEquals("mvc-vt plaintext", first.path("target").asText() + " " + first.path("scenario").asText());
            assertEquals("ok", first.path("status").asText(), first.toString());
            assertTrue(first.path("requests").asLong() > 100, first.toString());
        } finally {
            lab.descendants().forEach(ProcessHandle::destroyForcibly);
            lab.destroyForcibly();
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

    private static void awaitLine(Path file, String text, int seconds) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (System.currentTimeMillis() < deadline) {
            if (Files.isRegularFile(file) && Files.readString(file).contains(text)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no '" + text + "' within " + seconds + " s:\n" + Files.readString(file));
    }
}
