package dev.loomflux.lab.result;

import java.util.List;

/**
 * A result's "jvm": the target JVM's internals over the measured window, read from its JFR
 * recording. When no recording could be read, only available (false), note and virtual_threads.
 * {@code submitFailed}: {@code jdk.VirtualThreadSubmitFailed} events, virtual threads the scheduler could not start or
 * continue (null without virtual threads).
 */
public record JvmFacts(boolean available, String note, Long gcPauses, Double gcPauseTotalMs, Double gcPauseMaxMs, Double heapAfterGcPeakMb,
                       Double heapUsedAtEndMb, Double heapMaxMb, Double allocRateMbS, Long peakPlatformThreads, boolean virtualThreads,
                       Long pinnedEvents, List<PinnedFrame> pinnedTopFrames, String pinningNote, Long submitFailed) {
    /**
     * Where the application blocked while its virtual thread was pinned, and how often; with the whole stack of the first
     * event there, leaf first ("Class.method line N"), since the frame alone rarely says why it was pinned.
     */
    public record PinnedFrame(String frame, int count, List<String> stack) {
        public PinnedFrame {
            stack = stack == null ? List.of() : List.copyOf(stack);
        }
    }

    public static JvmFacts unavailable(String why, boolean virtualThreads) {
        return new JvmFacts(false, why, null, null, null, null, null, null, null, null, virtualThreads, null, null, null, null);
    }
}
