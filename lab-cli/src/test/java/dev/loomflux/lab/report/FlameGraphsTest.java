package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.cpuprofile.Category;
import dev.loomflux.lab.cpuprofile.CollapsedStacks;
import dev.loomflux.lab.result.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's CPU charts as data, from CpuBreakdownReportTest's made-up run (mvc 28 µs of CPU per request over 2,800 samples,
 * mvc-vt 37.8 µs over 3,780, both 1 µs per 100 samples) with collapsed stacks beside it that match its categories: the bars
 * are the table's figures, every frame of a flame graph is as wide as its samples' µs per request and no wider than its
 * caller, a frame under 1/1000 of its tree is left out, and the differential graph gives mvc-vt's µs minus mvc's in each
 * method, wherever it was called from.
 */
class FlameGraphsTest {
    private static final String DO_RUN = "org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun";

    @TempDir
    Path dir;

    /**
     * Stacks whose categories give {@code samples} (CpuBreakdownReportTest's order), one of "other"'s samples on a path of its own,
     * all under {@code thread}, the thread's root frame.
     */
    static CollapsedStacks stacks(long[] samples, String thread) {
        String root = thread + ";" + DO_RUN;
        TreeMap<String, Long> counts = new TreeMap<>();
        counts.put(root, samples[0]);
        counts.put(root + ";org.springframework.web.servlet.DispatcherServlet.doDispatch", samples[1]);
        counts.put(root + ";java.lang.VirtualThread.run", samples[3]);
        counts.put(root + ";org.springframework.web.servlet.DispatcherServlet.doDispatch;com.fasterxml.jackson.core.JsonGenerator.writeString", samples[4]);
        // A recursive method, as Tomcat's filter chain is: twice in a stack, once in the method's figure.
        counts.put(root + ";org.springframework.web.servlet.DispatcherServlet.doDispatch;dev.loomflux.targets.Work.cpu;dev.loomflux.targets.Work.cpu", samples[7]);
        counts.put(thread + ";java.lang.Object.wait", samples[8] - 1);
        counts.put(thread + ";rare.Frame", 1L);
        return new CollapsedStacks(counts);
    }

    static RunRecord run(Path dir) throws Exception {
        stacks(CpuBreakdownReportTest.MVC, "java.lang.Thread.run").write(dir.resolve("mvc.crud.collapsed"));
        // A virtual thread's stacks start elsewhere: no path of mvc-vt's is one of mvc's.
        stacks(CpuBreakdownReportTest.VT, "jdk.internal.vm.Continuation.enter").write(dir.resolve("mvc-vt.crud.collapsed"));
        return CpuBreakdownReportTest.run(CpuBreakdownReportTest.profile("mvc", 28.0, 0, CpuBreakdownReportTest.MVC),
                CpuBreakdownReportTest.profile("mvc-vt", 37.8, 0, CpuBreakdownReportTest.VT));
    }

    @Test
    void barsFlamesAndTheDifferenceCarryEachFramesMicrosecondsPerRequest() throws Exception {
        Map<String, JsonNode> charts = new HashMap<>();
        ChartData.of(run(dir), dir).path("charts").forEach(c -> charts.put(c.path("id").asText(), c));

        JsonNode bars = charts.get("s0-categories");
        assertEquals("[\"mvc\",\"mvc-vt\"]", bars.path("targets").toString());
        assertEquals(Category.values().length, bars.path("series").size());
        assertEquals("vt-scheduling", bars.path("series").get(3).path("name").asText());
        assertEquals("[0.5,6.6]", bars.path("series").get(3).path("data").toString(), "the table's µs per request");

        JsonNode mvc = charts.get("s0-flame-0");
        assertEquals("flame", mvc.path("kind").asText());
        assertEquals("mvc", mvc.path("series").get(0).path("name").asText());
        List<JsonNode> frames = new ArrayList<>();
        mvc.path("series").get(0).path("data").forEach(frames::add);
        // [from, to, depth, frame, category, width]: the root spans the CPU per request.
        assertEquals("[0.0,28.0,0,0,-1,28.0]", frames.get(0).toString());
        assertEquals("all", mvc.path("names").get(0).asText());
        assertFalse(mvc.path("names").toString().contains("rare.Frame"), "1 sample of 2,800 is under 1/1000");
        assertEquals(9, frames.size(), "the root, Thread.run, its 2 callees, doRun's 2, doDispatch's 2, Work.cpu's");
        for (JsonNode f : frames) {
            assertEquals(f.get(1).asDouble() - f.get(0).asDouble(), f.get(5).asDouble(), 1e-9, f.toString());
        }
        JsonNode dispatch = frame(mvc, frames, "org.springframework.web.servlet.DispatcherServlet.doDispatch");
        assertEquals(3, dispatch.get(2).asInt(), "depth: all, Thread.run, doRun, doDispatch");
        assertEquals(Category.DISPATCH.ordinal(), dispatch.get(4).asInt());
        assertEquals(15.0, dispatch.get(5).asDouble(), 1e-9, "(500 + 400 + 600) samples at 1 µs per 100");
        assertEquals(2, frame(mvc, frames, DO_RUN).get(2).asInt());
        assertEquals(-1, frame(mvc, frames, "java.lang.Object.wait").get(4).asInt(), "no rule names it");
        JsonNode json = frame(mvc, frames, "com.fasterxml.jackson.core.JsonGenerator.writeString");
        assertTrue(json.get(0).asDouble() >= dispatch.get(0).asDouble() && json.get(1).asDouble() <= dispatch.get(1).asDouble(), "inside its caller");

        JsonNode diff = charts.get("s0-flamediff-0");
        assertEquals("flamediff", diff.path("kind").asText());
        assertEquals("mvc-vt", diff.path("a").asText());
        assertEquals("mvc", diff.path("b").asText());
        List<JsonNode> vt = new ArrayList<>();
        diff.path("series").get(0).path("data").forEach(vt::add);
        assertEquals(37.8, vt.get(0).get(5).asDouble(), 1e-9);
        assertEquals(9.8, vt.get(0).get(6).asDouble(), 1e-9, "the whole difference at the root");
        assertEquals(9.8, diff.path("full").asDouble(), 1e-9, "the colours' full depth");
        assertEquals(37.8, frame(diff, vt, "jdk.internal.vm.Continuation.enter").get(6).asDouble(), 1e-9, "a method mvc never ran");
        assertEquals(6.1, frame(diff, vt, "java.lang.VirtualThread.run").get(6).asDouble(), 1e-9, "6.6 µs against 0.5");
        assertEquals(1.3, frame(diff, vt, "java.lang.Object.wait").get(6).asDouble(), 1e-9, "3.79 µs against 2.49");
        assertEquals(0.1, frame(diff, vt, "dev.loomflux.targets.Work.cpu").get(6).asDouble(), 1e-9, "6.1 µs against 6.0, each stack once");
        assertEquals(0.4, frame(diff, vt, "org.springframework.web.servlet.DispatcherServlet.doDispatch").get(6).asDouble(), 1e-9, "15.4 µs against 15.0");
        assertFalse(charts.containsKey("s0-flamediff-1"), "one CPU winner");
        assertTrue(ChartData.ids((ObjectNode) ChartData.of(run(dir), dir)).containsAll(FlameGraphs.ids("s0", List.of("mvc", "mvc-vt"), 1)));
    }

    /** A run made with --cpu-profile-rules keeps them beside results.json ({@code profile-rules.tsv}): its frames take their colours. */
    @Test
    void theRunsOwnRulesColourTheFrames() throws Exception {
        RunRecord record = run(dir);
        Files.writeString(dir.resolve("profile-rules.tsv"), "app\tjava.lang.Object.wait\n");
        JsonNode mvc = null;
        for (JsonNode c : ChartData.of(record, dir).path("charts")) {
            mvc = c.path("id").asText().equals("s0-flame-0") ? c : mvc;
        }
        List<JsonNode> frames = new ArrayList<>();
        mvc.path("series").get(0).path("data").forEach(frames::add);
        assertEquals(Category.APP.ordinal(), frame(mvc, frames, "java.lang.Object.wait").get(4).asInt(), "the user's rule");
        assertEquals(Category.DISPATCH.ordinal(), frame(mvc, frames, "org.springframework.web.servlet.DispatcherServlet.doDispatch").get(4).asInt(), "the lab's");
    }

    private static JsonNode frame(JsonNode chart, List<JsonNode> frames, String name) {
        return frames.stream().filter(f -> chart.path("names").get(f.get(3).asInt()).asText().equals(name)).findFirst().orElseThrow();
    }
}
