package dev.loomflux.lab.telemetry;

import dev.loomflux.lab.result.JvmFacts;
import dev.loomflux.lab.result.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * The JVM internals of one measured window, read from the target's JFR recording: GC pauses, heap
 * after GC, allocation rate, platform threads, virtual-thread pinning (with its stacks) and failed virtual-thread submits.
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
    private long submitFailed;
    private final Map<String, Integer> pinnedFrames = new HashMap<>();
    private final Map<String, List<String>> pinnedStacks = new HashMap<>();

    private JvmSummary() {
    }

    /**
     * @param virtualThreads whether the target serves requests on virtual threads
     * @param whyNot         when not null, no recording could be read: the summary says why
     */
    public static JvmFacts of(Path jfr, Instant from, Instant to, boolean virtualThreads, String whyNot) {
        if (whyNot == null) {
            try {
                return read(jfr, from, to).facts(virtualThreads, to.toEpochMilli() - from.toEpochMilli());
            } catch (IOException | RuntimeException e) {
                whyNot = "cannot read " + jfr.getFileName() + ": " + e.getMessage();
            }
        }
        return JvmFacts.unavailable(whyNot, virtualThreads);
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
                String top = topFrame(e.getStackTrace());
                pinnedFrames.merge(top, 1, Integer::sum);
                pinnedStacks.computeIfAbsent(top, k -> stack(e.getStackTrace()));
                break;
            case "jdk.VirtualThreadSubmitFailed":
                submitFailed++;
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

    /** Every frame, leaf first, as {@link #topFrame} names one. */
    private static List<String> stack(RecordedStackTrace stack) {
        return stack == null ? List.of() : stack.getFrames().stream()
                .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName() + " line " + f.getLineNumber()).toList();
    }

    private static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.");
    }

    private JvmFacts facts(boolean virtualThreads, long windowMs) {
        List<JvmFacts.PinnedFrame> frames = pinnedFrames.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(TOP_FRAMES)
                .map(en -> new JvmFacts.PinnedFrame(en.getKey(), en.getValue(), pinnedStacks.get(en.getKey())))
                .toList();
        return new JvmFacts(true, null, gcPauses, Result.round(pauseTotalMs), Result.round(pauseMaxMs), mb(heapAfterGcPeak), mb(heapUsedAtEnd), mb(heapMax),
                windowMs <= 0 ? null : Result.round(allocatedBytes / MB / (windowMs / 1000.0)), peakThreads < 0 ? null : peakThreads, virtualThreads,
                pinned, frames, virtualThreads ? null : "no virtual threads in this target: pinning cannot happen", virtualThreads ? submitFailed : null);
    }

    private static Double mb(long bytes) {
        return bytes < 0 ? null : Result.round(bytes / MB);
    }
}
