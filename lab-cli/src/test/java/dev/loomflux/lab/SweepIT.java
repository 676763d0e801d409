package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The crossover theory fixes (#12): mvc with 10 Tomcat threads against mvc-vt behind a 50 ms
 * downstream, closed users. Each user waits 50 ms per request, so at 5 users both serve 100 rps; from
 * 20 users on mvc-10's 10 threads cap it at 200 rps while mvc-vt serves users / 0.05 s. Three fresh
 * JVMs per target, each visiting 100, 50 and 5 users. The first cell gets up to 300 s to be steady, as
 * in CapacityIT: mvc-10 at 200 rps compiles slowly (with 120 s, its JIT was still at 6% of the time).
 */
@Tag("long") // ./check long, not CI
class SweepIT {
    @Test
    void noClearDifferenceAtFiveUsersAndVirtualThreadsClearlyAheadAtFiftyAndAHundred() throws Exception {
        LabCli run = LabCli.of("sweep", "--aot-cache", "--define", "mvc-10=mvc,server.tomcat.threads.max=10", "--targets", "mvc-10,mvc-vt",
                "--scenario", "gateway", "--delay", "50", "--vary", "users=5,50,100", "--duration", "5s",
                "--warmup", "300s", "--cell-warmup", "45s", "--cooldown", "1s", "--design", "sequential", "--repeat", "3");
        assertEquals(0, run.exitCode(), run.toString());
        Path file = Results.file(run.out());
        JsonNode sweep = Results.tree(file).path("sweep");
        assertEquals(3, sweep.path("cells").size(), sweep.toString());
        for (JsonNode cell : sweep.path("cells")) {
            int users = cell.path("at").path("users").asInt();
            JsonNode throughput = winner(cell, "throughput_rps");
            String where = users + " users: " + cell;
            for (JsonNode t : cell.path("targets")) {
                assertEquals(3, t.path("n").asInt(), where);
                assertTrue(t.path("steady").asBoolean(), "every repeat steady, or the map says nothing: " + where);
                double rps = t.path("metrics").path("throughput_rps").path("median").asDouble();
                double theory = t.path("target").asText().equals("mvc-10") ? Math.min(users, 10) / 0.05 : users / 0.05;
                assertTrue(rps > 0.8 * theory && rps < 1.05 * theory, "throughput near theory (" + theory + "): " + where);
            }
            if (users == 5) {
                assertEquals("no clear difference", throughput.path("verdict").asText(), where);
            } else {
                assertEquals("clear", throughput.path("verdict").asText(), where);
                assertEquals("mvc-vt", throughput.path("leader").asText(), where);
                assertEquals("clear", winner(cell, "p99_ms").path("verdict").asText(), "mvc-10's users queue for its threads: " + where);
                assertEquals("mvc-vt", winner(cell, "p99_ms").path("leader").asText(), where);
            }
        }
        String md = Files.readString(file.resolveSibling("report.md"));
        assertTrue(md.contains("## Where each model wins: gateway-delay50"), md);
        assertTrue(md.contains("| throughput | no clear difference | mvc-vt by "), md);
    }

    private static JsonNode winner(JsonNode cell, String metric) {
        for (JsonNode w : cell.path("winners")) {
            if (w.path("metric").asText().equals(metric)) {
                return w;
            }
        }
        throw new AssertionError("no " + metric + " in " + cell);
    }
}
