package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One lab per machine: two CI jobs on one runner measured 1,279 and 4,492 requests/s where one alone measures about 45,000. */
class TwoLabsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RESULTS = Pattern.compile("results: (\\S+results\\.json)");

    @Test
    void aSecondLabRefusesWithNoWaitOrWaitsAndNoMeasurementOverlaps(@TempDir Path tmp) throws Exception {
        Path console = tmp.resolve("first.txt");
        Process first = LabProcess.start(console, "run", "--aot-cache", "--design", "sequential", "--targets", "mvc", "--scenario", "plaintext", "--profile", "fixed",
                "--users", "4", "--duration", "8s", "--warmup", "0s", "--cooldown", "0s", "--name", "first", "--no-pin");
        try {
            LabProcess.awaitLine(console, "mvc: ready in", 120);
            Matcher id = Pattern.compile("run (\\S+): ").matcher(Files.readString(console));
            assertTrue(id.find(), Files.readString(console));
            String[] second = {"run", "--aot-cache", "--design", "sequential", "--targets", "webflux", "--scenario", "plaintext", "--profile", "fixed",
                "--users", "4", "--duration", "2s", "--warmup", "0s", "--cooldown", "0s", "--name", "second", "--no-pin"};
            String holder = "run " + id.group(1) + " (pid " + first.pid() + ", since ";

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
            JsonNode a = results(Files.readString(console));
            JsonNode b = results(waited.out());
            Instant aEnded = Instant.parse(a.path("finished_at").asText());
            Instant bStarted = Instant.parse(b.path("started_at").asText());
            System.out.printf("first lab: %s to %s; the second refused in %.2f s with --no-wait, else waited and started %s%n",
                    a.path("started_at").asText(), aEnded, refusedIn, bStarted);
            assertTrue(bStarted.isAfter(aEnded), "the second run began " + bStarted + ", before the first ended " + aEnded);
            assertEquals("ok", a.path("results").get(0).path("status").asText(), a.toString());
            assertEquals("ok", b.path("results").get(0).path("status").asText(), b.toString());
        } finally {
            first.descendants().forEach(ProcessHandle::destroyForcibly);
            first.destroyForcibly();
        }
    }

    private static JsonNode results(String out) throws Exception {
        Matcher m = RESULTS.matcher(out);
        assertTrue(m.find(), out);
        return JSON.readTree(Path.of(m.group(1)).toFile());
    }

    private static String[] append(String[] args, String arg) {
        String[] out = java.util.Arrays.copyOf(args, args.length + 1);
        out[args.length] = arg;
        return out;
    }
}
