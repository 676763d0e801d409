package dev.loomflux.lab.cpuprofile;

import java.time.Instant;

/**
 * A span of wall-clock time, start included and end excluded, so that back-to-back blocks of the
 * paired design never both claim the sample taken at the instant one ends and the next begins.
 */
public record TimeWindow(Instant start, Instant end) {
    public TimeWindow {
        if (end.isBefore(start)) {
            throw new IllegalArgumentException("window ends (" + end + ") before it starts (" + start + ")");
        }
    }

    /** From epoch milliseconds, as the lab's phases and blocks keep their edges. */
    public static TimeWindow ofMillis(long startMs, long endMs) {
        return new TimeWindow(Instant.ofEpochMilli(startMs), Instant.ofEpochMilli(endMs));
    }

    public boolean contains(Instant t) {
        return !t.isBefore(start) && t.isBefore(end);
    }
}
