package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.SweepMap;
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
        Path dir = run.dir();
        SweepMap sweep = Results.record(dir).summaries().sweep();
        assertEquals(3, sweep.cells().size(), sweep.toString());
        for (SweepMap.Cell cell : sweep.cells()) {
            int users = cell.at().get("users");
            SweepMap.Winner throughput = winner(cell, "throughput_rps");
            String where = users + " users: " + cell;
            for (SweepMap.TargetFigures t : cell.targets()) {
                assertEquals(3, t.n(), where);
                assertTrue(t.steady(), "every repeat steady, or the map says nothing: " + where);
                double rps = t.metrics().get("throughput_rps").median();
                double theory = t.target().equals("mvc-10") ? Math.min(users, 10) / 0.05 : users / 0.05;
                assertTrue(rps > 0.8 * theory && rps < 1.05 * theory, "throughput near theory (" + theory + "): " + where);
            }
            if (users == 5) {
                assertEquals("no clear difference", throughput.verdict(), where);
            } else {
                assertEquals("clear", throughput.verdict(), where);
                assertEquals("mvc-vt", throughput.leader(), where);
                assertEquals("clear", winner(cell, "p99_ms").verdict(), "mvc-10's users queue for its threads: " + where);
                assertEquals("mvc-vt", winner(cell, "p99_ms").leader(), where);
            }
        }
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("## Where each model wins: gateway-delay50"), md);
        assertTrue(md.contains("| throughput | no clear difference | mvc-vt by "), md);
    }

    private static SweepMap.Winner winner(SweepMap.Cell cell, String metric) {
        SweepMap.Winner w = cell.winner(metric);
        if (w == null) {
            throw new AssertionError("no " + metric + " in " + cell);
        }
        return w;
    }
}
