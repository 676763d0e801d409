package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.ExperimentReader;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Shipped experiments really run, at a tenth of their durations and requests (users unchanged). Two of
 * them, not all of them: every preset is read and checked by PresetsTest, every profile kind is driven
 * for real by LoadDriverIT, bring-your-own commands by ByoIT; these add what only a whole run shows.
 * Unpinned, so that each target JVM starts on both CPUs (4 s instead of 9): pinning is RunIT's and
 * TelemetryIT's to check.
 */
class PresetRunIT {
    /** Seed 003: the downstream stub, and limits from the file (each target in a 1 GB cgroup). */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void seed003RunsAtATenthOfItsScale() throws IOException {
        runsAtATenthOfItsScale("seed-003-gateway-latency");
    }

    /** The documented example: four targets, one an override, two scenarios. */
    @Test
    @Tag("long") // ./check long, not CI
    void theExampleRunsAtATenthOfItsScale() throws IOException {
        runsAtATenthOfItsScale("example");
    }

    private static void runsAtATenthOfItsScale(String preset) throws IOException {
        Experiment e = ExperimentReader.read(Home.detect().root().resolve("experiments").resolve(preset + ".yaml"), Drivers.ALL);
        // A smoke test: steady state is tested elsewhere, so warmup stays short.
        LabCli run = LabCli.of("run", preset, "--aot-cache", "--scale", "0.1", "--warmup", "5s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        RunRecord root = run.record();
        assertEquals("completed", root.header().status());
        List<Result> results = root.results();
        assertEquals(e.targets().size() * e.scenarios().size(), results.size(), results.toString());
        for (Result r : results) {
            String where = preset + " " + r.target() + " " + r.scenario();
            assertEquals("ok", r.outcome().status(), where + ": " + r.outcome().error());
            assertTrue(r.load().responses() > 0, where);
            assertTrue(r.telemetry().series().size() > 0, where);
        }
        if (e.limits().any()) {
            assertEquals(e.limits().memoryBytes() >> 20, root.experiment().limits().memoryMb(), root.experiment().toString());
        }
    }
}
