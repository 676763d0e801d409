package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.CapacityLadder;
import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ./lab capacity on a target whose capacity follows from its configuration: 10 Tomcat threads each
 * holding a request for a 100 ms downstream call serve at most 10 / 0.1 s = 100 requests/s.
 */
class CapacityIT {
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void theLadderBracketsTheTheoreticalRateAndTheSameTargetTwiceIsNoWinner() throws Exception {
        // Arrivals are evenly spaced (no variance), so below 100/s no request waits for a thread and above it the queue grows
        // by the excess every second: a 2 s block 5% over the knee ends 10 requests (100 ms) behind, past a 150 ms p99 at 100 ms.
        // At most 3 lead-in rounds a rung: at 100 requests/s the JIT compiles on for minutes, at about 2% of a CPU beside the
        // 10 threads' few (run 20261202-150005: 8-10 lead-in rounds a rung, 11 minutes in all).
        // From 30, not 25: a coarse rung (x4) at the knee itself is a coin flip, requests taking 103-110 ms put the real
        // capacity a little under 100, and a target that holds it narrowly climbs the coarse ladder on to 400, spending the
        // rungs the refining needs (CI, 2026-12-03: one target missed 100, its twin held it narrowly; 10 rungs, intervals 92-119).
        // From 30 the coarse rungs are 30 and 120, clear of the knee on both sides.
        LabCli run = LabCli.of("capacity", "--aot-cache", "--define", "mvc-10=mvc,server.tomcat.threads.max=10", "--define",
                "mvc-10b=mvc,server.tomcat.threads.max=10", "--targets", "mvc-10,mvc-10b", "--sets", "1", "--scenario", "gateway", "--delay", "100",
                "--slo", "p99<150ms", "--max-errors", "0%", "--start", "30", "--block", "2s", "--warmup", "60s", "--lead-in-rounds", "3");
        assertEquals(0, run.exitCode(), run.toString());
        RunRecord root = run.record();
        CapacityLadder ladder = root.summaries().capacityLadder().get(0);
        // The SLO's knee lies within a few percent of 100: requests a few ms over 100 ms lower it, and a 150 ms p99 lets the queue
        // grow for a 2 s block before it misses (by at most 2.25 requests/s over the threads' rate: 2 s x 2.25 = 4.5 requests,
        // 45 ms behind), which raises it. So the interval lies within +-10% of 100 and reaches to within 3% of 100 from each
        // side (runs of 2026-12-03: 100-109, and 101-110 where both held 101).
        for (CapacityLadder.Target t : ladder.targets()) {
            assertTrue(t.lowRps() != null && t.highRps() != null && t.lowRps() >= 90 && t.highRps() <= 110 && t.lowRps() <= 103 && t.highRps() >= 97,
                    t + ": the interval within +-10% of 100, each end within 3% of it or beyond; rungs " + ladder.rungs());
        }
        CapacityLadder.Ratio aa = ladder.pairs().get(0);
        assertFalse(aa.outcome().equals(PairComparison.A) || aa.outcome().equals(PairComparison.B), "the same target under two names: " + aa);
        // Little's law at every rung it held: requests in flight = arrival rate x mean latency, within 3%.
        for (BlockRecord b : root.paired().blocks()) {
            int rps = b.turn().cell().get("rate");
            if (rps < 100 && b.latency().meanMs() != null) {
                double little = b.load().rps() * b.latency().meanMs() / 1000;
                assertEquals(little, b.load().inFlight(), 0.03 * little, "Little's law at " + rps + " rps: " + b);
            }
        }
        assertTrue(run.out().contains("capacity gateway-delay100 at p99<150ms"), run.out());
    }

    @Test
    @Tag("long") // ./check long, not CI
    void findsTheTheoreticalRateOfATenThreadTomcatWithinTenPercent() throws Exception {
        // Steps must be steady: at 25 rps the cold JIT still used 3.6% of a CPU after 61 s; at 50 rps it took 174 s.
        // p99 < 200 ms: below the knee a request takes ~100-110 ms, but this machine's 100-180 ms stalls land in a
        // 4 s step's p99 (one search measured 183 ms at 50 rps); 5% over the knee, the queue adds > 200 ms in 4 s.
        LabCli run = LabCli.of("capacity", "--design", "sequential", "--aot-cache", "--define", "mvc-10=mvc,server.tomcat.threads.max=10", "--targets", "mvc-10",
                "--scenario", "gateway", "--delay", "100", "--slo", "p99<200ms", "--max-errors", "0%",
                "--start", "50", "--step", "4s", "--step-warmup", "40s", "--warmup", "300s");
        assertEquals(0, run.exitCode(), run.toString());
        CapacitySearchResult c = run.record().summaries().capacity().get(0);
        int capacity = c.capacityRps();
        assertTrue(capacity >= 90 && capacity <= 110, "capacity " + capacity + " rps, theory 100; steps " + c.steps());
        boolean sawFailure = false;
        for (CapacitySearchResult.Step s : c.steps()) {
            sawFailure |= !s.sloMet();
            if (s.sloMet()) {
                // Only a steady step may meet the SLO.
                assertTrue(s.steady(), s.toString());
                assertTrue(s.p99() < 200 && s.offeredRps() <= capacity, s.toString());
            }
        }
        assertTrue(sawFailure, "the search must have crossed the knee: " + c.steps());
        assertTrue(run.out().contains("capacity mvc-10 gateway-delay100: " + capacity + " rps meets p99<200ms"), run.out());
    }

    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void repeatedSearchesAreFreshJvmsWithTheirOwnFilesAndAMedian() throws Exception {
        // Wiring, not capacity: two searches of one target, each in its own JVM, each one step (and its retry) at 1-2 rps.
        // Too short a warmup to be steady, so they find nothing; what is checked is where each search's results go.
        LabCli run = LabCli.of("capacity", "--design", "sequential", "--aot-cache", "--targets", "webflux", "--scenario", "json", "--slo", "p99<500ms", "--start", "1",
                "--max-rps", "2", "--step", "2s", "--step-warmup", "0s", "--warmup", "3s", "--cooldown", "0s", "--repeat", "2", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        Path dir = run.dir();
        RunRecord root = Results.record(dir);
        List<CapacitySearchResult> searches = root.summaries().capacity();
        assertEquals(2, searches.size(), searches.toString());
        assertEquals(1, searches.get(0).repeat());
        assertEquals(2, searches.get(1).repeat());
        for (Result r : root.results()) {
            String hlog = r.files().hlog();
            assertTrue(hlog.contains(".r" + r.key().repeat() + ".step" + r.key().step()), hlog);
            assertTrue(java.nio.file.Files.isRegularFile(dir.resolve(hlog)), hlog);
        }
        CapacityMedian summary = root.summaries().capacitySummary().get(0);
        assertEquals(2, summary.n(), root.summaries().capacitySummary().toString());
        double a = searches.get(0).capacityRps();
        double b = searches.get(1).capacityRps();
        assertEquals((a + b) / 2, summary.medianRps(), 0.001);
        assertTrue(run.out().contains("capacity webflux json: median "), run.out());
        assertTrue(run.out().contains(" rps of 2 searches ("), run.out());
        assertEquals(2, run.out().lines().filter(l -> l.contains("webflux: ready in")).count(), "one JVM per search: " + run.out());
    }
}
