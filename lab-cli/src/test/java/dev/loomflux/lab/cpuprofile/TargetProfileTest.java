package dev.loomflux.lab.cpuprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.CpuProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The step both designs take after a target's load: its recording's samples in its measured windows, written as collapsed
 * stacks, and the result's profile, each category's share of them times the result's CPU per request.
 *
 * <p>One real recording, made once: a thread sorts for 0.3 s before the windows (as a JVM warms up before its measured
 * load), then in two windows of 0.3 s with a pause between them (as a target's blocks of the paired design), sampled every
 * 10 ms.
 */
class TargetProfileTest {
    private static final CollapsedStacks STACKS = new CollapsedStacks(new TreeMap<>(Map.of(
            "java.lang.Thread.run;org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun;dev.loomflux.targets.mvc.ItemController.get", 30L,
            "java.lang.Thread.run;org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun;com.fasterxml.jackson.core.JsonGenerator.writeString", 15L,
            "[truncated];com.fasterxml.jackson.core.JsonParser.nextToken", 5L,
            "java.lang.Thread.run;org.apache.tomcat.util.net.NioEndpoint.serviceSocket", 10L)));
    private static final List<String> LABELS = List.of("server-io", "dispatch", "reactor", "vt-scheduling", "json", "db", "http-client", "app", "gc", "jit", "other");
    private static final Duration BURN = Duration.ofMillis(300);

    @TempDir
    static Path dir;
    private static List<TimeWindow> windows;
    private static volatile int sink;

    @BeforeAll
    static void record() throws Exception {
        sort(Duration.ofMillis(200)); // compiled before the recording
        Instant[] edges = new Instant[4];
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            Thread burner = new Thread(() -> {
                sort(BURN);
                edges[0] = Instant.now();
                sort(BURN);
                edges[1] = Instant.now();
                pause();
                edges[2] = Instant.now();
                sort(BURN);
                edges[3] = Instant.now();
            }, "burner");
            burner.start();
            burner.join();
            recording.stop();
            recording.dump(dir.resolve("mvc.json.jfr"));
        }
        windows = List.of(new TimeWindow(edges[0], edges[1]), new TimeWindow(edges[2], edges[3]));
    }

    private static void sort(Duration time) {
        int[] numbers = new Random(1).ints(4096).toArray();
        long until = System.nanoTime() + time.toNanos();
        while (System.nanoTime() < until) {
            int[] copy = numbers.clone();
            Arrays.sort(copy);
            sink = copy[copy.length / 2];
        }
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void eachCategoryGetsItsShareOfTheSamplesAndOfTheResultsCpuPerRequestInTheEnumsOrder() {
        CpuProfile p = TargetProfile.of("mvc.json.collapsed", Profiler.JFR, new Samples(STACKS, 5), CategoryRules.lab(), 0.24);
        assertEquals("mvc.json.collapsed", p.collapsed());
        assertEquals(60, p.samples());
        assertEquals(5, p.truncated());
        assertEquals(LABELS, p.categories().stream().map(CpuProfile.CategoryShare::category).toList());
        assertEquals(List.of(10L, 0L, 0L, 0L, 20L, 0L, 0L, 30L, 0L, 0L, 0L), p.categories().stream().map(CpuProfile.CategoryShare::samples).toList(),
                "a truncated stack counts under its leaf-most known frame: json");
        assertEquals(List.of(0.167, 0.0, 0.0, 0.0, 0.333, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0), p.categories().stream().map(CpuProfile.CategoryShare::share).toList());
        assertEquals(List.of(40.0, 0.0, 0.0, 0.0, 80.0, 0.0, 0.0, 120.0, 0.0, 0.0, 0.0), p.categories().stream().map(CpuProfile.CategoryShare::usPerRequest).toList(),
                "0.24 ms of CPU per request shared out in µs");
    }

    @Test
    void withoutACpuFigureTheSharesStayAndNoCategoryHasMicroseconds() {
        CpuProfile p = TargetProfile.of("x.collapsed", Profiler.JFR, new Samples(STACKS, 5), CategoryRules.lab(), null);
        assertEquals(0.5, p.categories().get(7).share());
        assertTrue(p.categories().stream().allMatch(c -> c.usPerRequest() == null), p.toString());
        assertThrows(IllegalArgumentException.class, () -> TargetProfile.of("x.collapsed", Profiler.JFR, new Samples(new CollapsedStacks(new TreeMap<>()), 0),
                CategoryRules.lab(), 0.24));
    }

    @Test
    void theSamplesInTheWindowsAreWrittenBesideTheRecordingAndShareOutTheCpu() throws Exception {
        List<String> log = new ArrayList<>();
        TargetProfile.Profiled profiled = TargetProfile.write(dir, "mvc.json", ProfileSource.jfr("mvc.json", null), windows, 0.05, CategoryRules.lab(), log::add);
        CpuProfile p = profiled.profile();
        assertEquals(List.of(), log);
        assertEquals("mvc.json.collapsed", p.collapsed());

        Path jfr = dir.resolve("mvc.json.jfr");
        CollapsedStacks inWindows = JfrSamples.read(jfr, windows).java().stacks();
        assertEquals(inWindows, CollapsedStacks.read(dir.resolve(p.collapsed())));
        assertEquals(inWindows.samples(), p.samples());
        long first = JfrSamples.read(jfr, windows.subList(0, 1)).java().count();
        long second = JfrSamples.read(jfr, windows.subList(1, 2)).java().count();
        assertTrue(first > 0 && second > 0, first + " and " + second + " samples in the windows");
        assertEquals(first + second, p.samples(), "the union of the windows");
        // Each window's own samples per category, read in the same pass: they add up to the window's samples and, over the windows, to the profile's.
        assertEquals(List.of(first, second), profiled.byWindow().stream().map(m -> m.values().stream().mapToLong(Long::longValue).sum()).toList());
        assertEquals(LABELS, List.copyOf(profiled.byWindow().get(0).keySet()));
        for (CpuProfile.CategoryShare c : p.categories()) {
            assertEquals(c.samples(), profiled.byWindow().get(0).get(c.category()) + profiled.byWindow().get(1).get(c.category()), c.category());
        }
        long all = JfrSamples.read(jfr, List.of(new TimeWindow(Instant.MIN, Instant.MAX))).java().count();
        assertTrue(p.samples() < all, "the sorting before the windows is left out: " + p.samples() + " of " + all);

        assertEquals(p.samples(), p.categories().stream().mapToLong(CpuProfile.CategoryShare::samples).sum());
        assertEquals(50, p.categories().stream().mapToDouble(CpuProfile.CategoryShare::usPerRequest).sum(), 0.01, "0.05 ms in µs, shared out");
        CpuProfile.CategoryShare other = p.categories().get(LABELS.indexOf("other"));
        assertTrue(other.share() > 0.5, "the JDK's sort under the test's own code is no category's: " + p.categories());
        assertEquals(other.share() * 50, other.usPerRequest(), 0.01);
    }

    @Test
    void aRecordingNotDumpedUnreadableOrWithoutASampleIsOneLineAndNoProfile() throws Exception {
        assertNoProfile("mvc.json", "jcmd JFR.dump timed out after 60 s", windows, "no CPU profile: no JFR recording: jcmd JFR.dump timed out after 60 s");
        Files.writeString(dir.resolve("broken.json.jfr"), "not a recording");
        assertNoProfile("broken.json", null, windows, "no CPU profile: broken.json.jfr: ");
        assertNoProfile("absent.json", null, windows, "no CPU profile: absent.json.jfr: java.io.FileNotFoundException: ");
        Instant before = windows.get(0).start().minusSeconds(3600);
        assertNoProfile("mvc.json", null, List.of(new TimeWindow(before, before.plusSeconds(1))),
                "no CPU profile: no Java execution sample of mvc.json.jfr in the measured window");
    }

    private static void assertNoProfile(String base, String whyNoJfr, List<TimeWindow> in, String line) throws Exception {
        Files.deleteIfExists(dir.resolve(base + ".collapsed"));
        List<String> log = new ArrayList<>();
        TargetProfile.Profiled none = TargetProfile.write(dir, base, ProfileSource.jfr(base, whyNoJfr), in, 0.05, CategoryRules.lab(), log::add);
        assertNull(none.profile());
        assertEquals(List.of(), none.byWindow());
        assertEquals(1, log.size(), log.toString());
        assertTrue(log.get(0).startsWith(line) && log.get(0).lines().count() == 1, log.get(0));
        assertFalse(Files.exists(dir.resolve(base + ".collapsed")), "no collapsed file without a profile");
    }
}
