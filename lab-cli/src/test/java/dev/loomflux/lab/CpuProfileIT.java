package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.cpuprofile.CollapsedStacks;
import dev.loomflux.lab.result.CpuProfile;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The default profiler (JFR) on every built-in target, in rounds: on /cpu the work method is the leaf-most app frame of most
 * samples, and the collapsed stacks hold exactly the profile's samples.
 */
class CpuProfileIT {
    private static final String APP = "dev.loomflux.targets.";
    private static final String WORK = "dev.loomflux.targets.CpuWork.digest";

    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void theCpuWorkIsTheTopAppFrameOnEveryTarget() throws Exception {
        LabCli run = LabCli.of("run", "--aot-cache", "--targets", "mvc,mvc-vt,webflux,webflux-vt", "--scenario", "cpu", "--users", "4", "--rounds", "6",
                "--lead-in-rounds", "2", "--block", "1s", "--sets", "1", "--warmup", "20s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        Path dir = run.dir();
        List<Result> all = Results.record(dir).results();
        assertEquals(4, all.size(), all.toString());
        for (Result result : all) {
            CpuProfile profile = result.telemetry().profile();
            String target = result.target();
            assertEquals("jfr", profile.profiler(), target + ": " + profile);
            CollapsedStacks stacks = CollapsedStacks.read(dir.resolve(profile.collapsed()));
            assertEquals(profile.samples(), stacks.samples(), target);
            Map<String, Long> app = new TreeMap<>();
            stacks.counts().forEach((stack, n) -> {
                List<String> frames = Arrays.asList(stack.split(CollapsedStacks.FRAME_SEPARATOR));
                frames.stream().filter(f -> f.startsWith(APP)).reduce((first, last) -> last).ifPresent(f -> app.merge(f, n, Long::sum));
            });
            assertEquals(WORK, app.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey(), target + ": " + app);
            assertTrue(app.get(WORK) > stacks.samples() / 2, target + ": " + app.get(WORK) + " of " + stacks.samples() + " samples in " + WORK);
        }
    }
}
