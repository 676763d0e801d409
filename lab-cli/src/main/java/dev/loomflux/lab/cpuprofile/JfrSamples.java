package dev.loomflux.lab.cpuprofile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * The stacks JFR's two method samplers took in a recording, each frame named
 * {@code package.Class.method}, root first; or async-profiler's, which it writes in the same
 * format and event ({@code jdk.ExecutionSample}), with native and kernel frames ({@link #frameName}).
 *
 * <p>The two are kept apart because they measure different things. {@code jdk.ExecutionSample}
 * samples threads running Java code: they are on CPU (or runnable), so its stacks say where the
 * CPU went. {@code jdk.NativeMethodSample} samples threads inside a native method, and a thread
 * blocked in {@code accept}, {@code epoll_wait} or a socket read is inside one too (in the test,
 * a thread idle in {@code accept} took half the native samples). Neither sampler ever sees the
 * JVM's own threads (GC workers, JIT compiler threads), so no stack here stands for garbage
 * collection or compilation. Nor does a sample survive when the thread is inside a JIT stub the
 * sampler cannot walk from: SHA-256 compiled to its intrinsic, on a CPU with SHA extensions, got 1
 * or 2 samples in a busy second where plain Java code got 70 to 80, so code that runs in
 * intrinsics is undercounted.
 *
 * <p>A truncated stack (deeper than the recording's stack depth) lacks its root frames; it is
 * kept, rooted at {@link #TRUNCATED} so that a flame graph shows it as cut rather than as a root
 * of its own.
 *
 * @param java         {@code jdk.ExecutionSample}: threads running Java code
 * @param inNative     {@code jdk.NativeMethodSample}: threads inside a native method, running or blocked
 * @param javaByWindow {@code java}'s stacks per window, in the windows' order: a block's own samples, for intervals over blocks
 */
public record JfrSamples(Samples java, Samples inNative, List<CollapsedStacks> javaByWindow) {
    public JfrSamples {
        javaByWindow = List.copyOf(javaByWindow);
    }

    /** The root frame given to a stack JFR truncated. */
    public static final String TRUNCATED = "[truncated]";
    private static final String EXECUTION = "jdk.ExecutionSample";
    private static final String NATIVE = "jdk.NativeMethodSample";
    private static final Pattern HIDDEN_SUFFIX = Pattern.compile("\\+0x\\p{XDigit}+(\\.\\d+)?$");
    private static final Pattern LAMBDA_NUMBER = Pattern.compile("\\$\\$Lambda\\$\\d+$");
    /** async-profiler's descriptors of a native and of a kernel frame (its lookup.cpp, fillNativeMethodInfo). */
    private static final String NATIVE_DESCRIPTOR = "()L;";
    private static final String KERNEL_DESCRIPTOR = "(Lk;)L;";
    /** What async-profiler's collapsed output appends to a kernel frame. */
    public static final String KERNEL_SUFFIX = "_[k]";

    /**
     * @param windows keeps only the samples whose start time falls in one of them (in the paired
     *                design a target is measured only in its own blocks); none keeps none
     */
    public static JfrSamples read(Path jfr, List<TimeWindow> windows) throws IOException {
        SampleTally java = new SampleTally();
        SampleTally inNative = new SampleTally();
        List<SampleTally> byWindow = windows.stream().map(w -> new SampleTally()).toList();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                String type = e.getEventType().getName();
                SampleTally tally = type.equals(EXECUTION) ? java : type.equals(NATIVE) ? inNative : null;
                int window = tally == null ? -1 : windowOf(windows, e.getStartTime());
                if (window >= 0) {
                    String stack = tally.add(e.getStackTrace());
                    if (tally == java) {
                        byWindow.get(window).add(stack);
                    }
                }
            }
        }
        return new JfrSamples(java.samples(), inNative.samples(), byWindow.stream().map(t -> t.samples().stacks()).toList());
    }

    /** The first window that holds {@code t}, or -1. */
    private static int windowOf(List<TimeWindow> windows, Instant t) {
        for (int i = 0; i < windows.size(); i++) {
            if (windows.get(i).contains(t)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code package.Class.method}: no line number, so that a method's samples add up in one frame.
     * A hidden class (a lambda's, a method handle's) loses what differs between two JVMs running the
     * same code, so that their profiles can be compared: the {@code +0xADDRESS.ID} JFR appends
     * ({@code Api$$Lambda$567+0x00007f3c180de4f0.873827336}) and a lambda's number
     * ({@code Api$$Lambda}).
     *
     * <p>async-profiler's recordings also hold native frames, which it writes as methods of a class
     * named after their library ({@code libjvm.so}, {@code libc.so.6}) with a descriptor no JVM method
     * can have: {@code ()L;} for a C or C++ function, {@code (Lk;)L;} for the kernel's. Those are
     * named as async-profiler's own collapsed output names them, by the symbol alone, a kernel
     * function with {@code _[k]} after it (flamegraph.pl colours those as kernel), so that a rule can
     * name HotSpot's functions ({@code CompileBroker::}) and a native frame never passes for Java.
     */
    static String frameName(String type, String method, String descriptor) {
        if (NATIVE_DESCRIPTOR.equals(descriptor)) {
            return method;
        }
        if (KERNEL_DESCRIPTOR.equals(descriptor)) {
            return method + KERNEL_SUFFIX;
        }
        type = HIDDEN_SUFFIX.matcher(type).replaceFirst("");
        return LAMBDA_NUMBER.matcher(type).replaceFirst(Matcher.quoteReplacement("$$Lambda")) + "." + method;
    }

    private static String frameName(RecordedFrame f) {
        return frameName(f.getMethod().getType().getName(), f.getMethod().getName(), f.getMethod().getDescriptor());
    }

    private static final class SampleTally {
        private final SortedMap<String, Long> counts = new TreeMap<>();
        private long truncated;

        /** @return the stack as collapsed */
        String add(RecordedStackTrace stack) {
            List<RecordedFrame> frames = stack.getFrames(); // leaf first
            StringBuilder sb = new StringBuilder();
            if (stack.isTruncated()) {
                truncated++;
                sb.append(TRUNCATED);
            }
            for (int i = frames.size() - 1; i >= 0; i--) {
                if (sb.length() > 0) {
                    sb.append(CollapsedStacks.FRAME_SEPARATOR);
                }
                sb.append(frameName(frames.get(i)));
            }
            String collapsed = sb.toString();
            add(collapsed);
            return collapsed;
        }

        void add(String collapsed) {
            counts.merge(collapsed, 1L, Long::sum);
        }

        Samples samples() {
            return new Samples(new CollapsedStacks(counts), truncated);
        }
    }
}
