package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One lab per machine: two CI jobs on one runner measured 1,279 and 4,492 requests/s where one alone measures about 45,000. */
class TwoLabsIT {
    @Test
    void aSecondLabRefusesWithNoWaitOrWaitsAndNoMeasurementOverlaps(@TempDir Path tmp) throws Exception {
        Path console = tmp.resolve("first.txt");
        Set<Path> before = Results.runDirs();
        Process first = LabProcess.start(console, "run", "--aot-cache", "--design", "sequential", "--targets", "mvc", "--scenario", "plaintext", "--profile", "fixed",
                "--users", "4", "--duration", "8s", "--warmup", "0s", "--cooldown", "0s", "--name", "first", "--no-pin");
        try {
            LabProcess.awaitLine(console, "mvc: ready in", 120);
            Path firstDir = Results.one(Results.madeSince(before), Files.readString(console));
            String[] second = {"run", "--aot-cache", "--design", "sequential", "--targets", "webflux", "--scenario", "plaintext", "--profile", "fixed",
                "--users", "4", "--duration", "2s", "--warmup", "0s", "--cooldown", "0s", "--name", "second", "--no-pin"};
            String holder = "run " + firstDir.getFileName() + " (pid " + first.pid() + ", since ";

            long asked = System.nanoTime();
            LabCli refused = LabCli.of(append(second, "--no-wait"));
            double refusedIn = (System.nanoTime() - asked) / 1e9;
            assertEquals(2, refused.exitCode(), refused.toString());
            assertEquals(1, refused.err().strip().lines().count(), refused.toString());
            assertTrue(refused.err().startsWith("lab: another lab is measuring on this machine: " + holder), refused.toString());
            assertEquals("", refused.out(), refused.toString());
            assertTrue(refusedIn < 2, "refused after " + refusedIn + " s");
            assertTrue(first.isAlive(), "the first lab still measures");

            LabCli waited = LabCli.of(second);
            assertEquals(0, waited.exitCode(), waited.toString());
            assertTrue(first.waitFor(1, TimeUnit.SECONDS));
            assertEquals(0, first.exitValue(), Files.readString(console));
            assertTrue(waited.out().startsWith("lab: waiting for the machine: " + holder), waited.out());
            RunRecord a = Results.record(firstDir);
            RunRecord b = waited.record();
            Instant aEnded = Instant.parse(a.header().finishedAt());
            Instant bStarted = Instant.parse(b.header().startedAt());
            System.out.printf("first lab: %s to %s; the second refused in %.2f s with --no-wait, else waited and started %s%n",
                    a.header().startedAt(), aEnded, refusedIn, bStarted);
            assertTrue(bStarted.isAfter(aEnded), "the second run began " + bStarted + ", before the first ended " + aEnded);
            assertEquals("ok", a.results().get(0).outcome().status(), a.toString());
            assertEquals("ok", b.results().get(0).outcome().status(), b.toString());
        } finally {
            first.descendants().forEach(ProcessHandle::destroyForcibly);
            first.destroyForcibly();
        }
    }

    private static String[] append(String[] args, String arg) {
        String[] out = java.util.Arrays.copyOf(args, args.length + 1);
        out[args.length] = arg;
        return out;
    }
}
