package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.cpuprofile.CollapsedStacks;
import dev.loomflux.lab.cpuprofile.JfrSamples;
import dev.loomflux.lab.cpuprofile.TimeWindow;
import dev.loomflux.lab.result.CpuProfile;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@code --cpu-profiler async} end to end: real targets load async-profiler at their start, the lab dumps its recording per
 * scenario and reads it as it reads JFR's, and the profile holds what JFR's cannot: native frames, the JVM's own threads,
 * and, where perf events are allowed (root, or perf_event_paranoid at most 1), kernel frames.
 */
class AsyncProfilerIT {
    private static final String APP = "dev.loomflux.targets.";
    private static final String WORK = "dev.loomflux.targets.CpuWork.digest";

    @Test
    void theCpuWorkIsTheTopAppFrameAndTheJvmsOwnThreadsAndEachBlocksCategoriesAreThere() throws Exception {
        LabCli run = LabCli.of("run", "--cpu-profiler", "async", "--targets", "mvc", "--scenario", "cpu", "--users", "4", "--rounds", "6",
                "--lead-in-rounds", "2", "--block", "1s", "--sets", "1", "--warmup", "20s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        Path dir = run.dir();
        RunRecord record = Results.record(dir);
        Result result = record.results().get(0);
        CpuProfile profile = result.telemetry().profile();
        assertEquals("async", profile.profiler(), profile.toString());
        String base = result.target() + "." + result.scenario();
        CollapsedStacks stacks = CollapsedStacks.read(dir.resolve(profile.collapsed()));
        assertEquals(profile.samples(), stacks.samples());

        // The leaf-most app frame of each sample: the work method holds most of the samples.
        Map<String, Long> app = new TreeMap<>();
        stacks.counts().forEach((stack, n) -> {
            List<String> frames = Arrays.asList(stack.split(CollapsedStacks.FRAME_SEPARATOR));
            frames.stream().filter(f -> f.startsWith(APP)).reduce((first, last) -> last).ifPresent(f -> app.merge(f, n, Long::sum));
        });
        String top = app.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        assertEquals(WORK, top, app.toString());
        // Of the samples inside the app's code, the work method is the leaf-most of most. Not "of all the requests'
        // samples": under async-profiler those also hold Tomcat's poller and the kernel's network frames, whose share
        // moves with the host (the work method had 216 of 488 in one run and 158 of 341 in a CI run).
        long inApp = app.values().stream().mapToLong(Long::longValue).sum();
        assertTrue(app.get(WORK) > inApp / 2, app.get(WORK) + " of " + inApp + " samples in the app's code in " + WORK + ": " + app);

        // Native frames: the HotSpot threads' own (thread_native_entry starts each), which JFR never samples.
        long jvmThreads = stacks.counts().entrySet().stream().filter(e -> e.getKey().contains(";thread_native_entry;")).mapToLong(Map.Entry::getValue).sum();
        assertTrue(jvmThreads > 0, "no sample of the JVM's own threads");
        boolean perfEvents = "root".equals(System.getProperty("user.name"))
                || Integer.parseInt(Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip()) <= 1;
        if (perfEvents) {
            assertTrue(stacks.counts().keySet().stream().anyMatch(s -> s.endsWith(JfrSamples.KERNEL_SUFFIX)), "no kernel frame");
        }

        // Each block has its own samples per category, gc and jit among them; JFR's own sampler was off.
        assertEquals(6, record.paired().blocks().size());
        assertTrue(record.paired().blocks().stream().allMatch(b -> b.categories() != null && b.categories().containsKey("gc") && b.categories().containsKey("jit")
                && b.categories().values().stream().mapToLong(Long::longValue).sum() > 0), "every block has its samples per category");
        List<TimeWindow> always = List.of(new TimeWindow(Instant.EPOCH, Instant.now()));
        assertEquals(0, JfrSamples.read(dir.resolve(base + ".jfr"), always).java().count(), "JFR sampled too");
        assertTrue(Files.readString(dir.resolve("report.md")).contains("-agentpath:<async-profiler "), "the report states the agent among the JVM flags");
    }

    /** The wall clock: every thread, waiting too, so the profile has shares and no µs of CPU per request. */
    @Test
    void theWallClockGivesSharesAndNoCpuPerCategory() throws IOException {
        LabCli run = LabCli.of("run", "--cpu-profiler", "async-wall", "--design", "sequential", "--targets", "mvc", "--scenario", "json", "--users", "4",
                "--duration", "3s", "--warmup", "2s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        CpuProfile profile = run.record().results().get(0).telemetry().profile();
        assertEquals("async-wall", profile.profiler(), profile.toString());
        assertTrue(profile.samples() > 0, profile.toString());
        for (CpuProfile.CategoryShare c : profile.categories()) {
            assertNull(c.usPerRequest(), "a wall-clock sample is no CPU: " + c);
        }
    }
}
