package dev.loomflux.lab.telemetry;

import dev.loomflux.lab.result.ScenarioResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * The JVM internals of one measured window, read from the target's JFR recording: GC pauses, heap
 * after GC, allocation rate, platform threads and virtual-thread pinning.
 */
public final class JvmSummary {
    private static final double MB = 1048576.0;
    private static final int TOP_FRAMES = 5;

    private long gcPauses;
    private double pauseTotalMs;
    private double pauseMaxMs;
    private long heapAfterGcPeak = -1;
    private long allocatedBytes;
    private long peakThreads = -1;
    private long heapUsedAtEnd = -1;
    private long heapMax = -1;
    private long pinned;
    private final Map<String, Integer> pinnedFrames = new HashMap<>();

    private JvmSummary() {
    }

    /**
     * @param virtualThreads whether the target serves requests on virtual threads
     * @param whyNot         when not null, no recording could be read: the summary says why
     */
    public static Map<String, Object> of(Path jfr, Instant from, Instant to, boolean virtualThreads, String whyNot) {
        if (whyNot == null) {
            try {
                return read(jfr, from, to).toMap(virtualThreads, to.toEpochMilli() - from.toEpochMilli());
            } catch (IOException | RuntimeException e) {
                whyNot = "cannot read " + jfr.getFileName() + ": " + e.getMessage();
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("available", false);
        m.put("note", whyNot);
        m.put("virtual_threads", virtualThreads);
        return m;
    }

    private static JvmSummary read(Path jfr, Instant from, Instant to) throws IOException {
        JvmSummary s = new JvmSummary();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (e.getStartTime().isBefore(from)) {
                    continue;
                }
                if (!e.getStartTime().isAfter(to)) {
                    s.add(e);
                } else if (e.getEventType().getName().equals("jdk.GCHeapMemoryUsage")) {
                    // Emitted when the recording is dumped, just after the window: the heap as the load ended.
                    s.heapUsedAtEnd = e.getLong("used");
                    s.heapMax = e.getLong("max");
                }
            }
        }
        return s;
    }

    private void add(RecordedEvent e) {
        switch (e.getEventType().getName()) {
            case "jdk.GarbageCollection":
                gcPauses++;
                double sum = e.getDuration("sumOfPauses").toNanos() / 1e6;
                pauseTotalMs += sum;
                pauseMaxMs = Math.max(pauseMaxMs, e.getDuration("longestPause").toNanos() / 1e6);
                break;
            case "jdk.GCHeapSummary":
                if ("After GC".equals(e.getString("when"))) {
                    heapAfterGcPeak = Math.max(heapAfterGcPeak, e.getLong("heapUsed"));
                }
                break;
            case "jdk.ObjectAllocationSample":
                // Each sample weighs the bytes allocated since the previous one, so the weights add up to the total.
                allocatedBytes += e.getLong("weight");
                break;
            case "jdk.JavaThreadStatistics":
                peakThreads = Math.max(peakThreads, e.getLong("activeCount"));
                break;
            case "jdk.VirtualThreadPinned":
                pinned++;
                pinnedFrames.merge(topFrame(e.getStackTrace()), 1, Integer::sum);
                break;
            default:
                break;
        }
    }

    /** The first frame outside the JDK: where the application blocked while pinned. */
    private static String topFrame(RecordedStackTrace stack) {
        if (stack == null || stack.getFrames().isEmpty()) {
            return "(no stack trace)";
        }
        RecordedFrame chosen = stack.getFrames().stream()
                .filter(f -> f.isJavaFrame() && !isJdk(f.getMethod().getType().getName()))
                .findFirst().orElse(stack.getFrames().get(0));
        return chosen.getMethod().getType().getName() + "." + chosen.getMethod().getName() + " line " + chosen.getLineNumber();
    }

    private static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.");
    }

    private Map<String, Object> toMap(boolean virtualThreads, long windowMs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("available", true);
        m.put("note", null);
        m.put("gc_pauses", gcPauses);
        m.put("gc_pause_total_ms", ScenarioResult.round(pauseTotalMs));
        m.put("gc_pause_max_ms", ScenarioResult.round(pauseMaxMs));
        m.put("heap_after_gc_peak_mb", heapAfterGcPeak < 0 ? null : ScenarioResult.round(heapAfterGcPeak / MB));
        m.put("heap_used_at_end_mb", heapUsedAtEnd < 0 ? null : ScenarioResult.round(heapUsedAtEnd / MB));
        m.put("heap_max_mb", heapMax < 0 ? null : ScenarioResult.round(heapMax / MB));
        m.put("alloc_rate_mb_s", windowMs <= 0 ? null : ScenarioResult.round(allocatedBytes / MB / (windowMs / 1000.0)));
        m.put("peak_platform_threads", peakThreads < 0 ? null : peakThreads);
        m.put("virtual_threads", virtualThreads);
        m.put("pinned_events", pinned);
        List<Map<String, Object>> frames = new ArrayList<>();
        pinnedFrames.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(TOP_FRAMES)
                .forEach(en -> frames.add(Map.of("frame", en.getKey(), "count", en.getValue())));
        m.put("pinned_top_frames", frames);
        m.put("pinning_note", virtualThreads ? null : "no virtual threads in this target: pinning cannot happen");
        return m;
    }
}
