package dev.loomflux.lab.cpuprofile;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Sample counts per distinct stack, each stack its frames root first joined by {@code ;}: the
 * collapsed-stack format of Brendan Gregg's stackcollapse scripts, which flamegraph.pl and
 * speedscope read. A file holds one {@code frame;frame;frame COUNT} line per stack, sorted by stack,
 * so that the same samples always make the same bytes and a file the lab wrote reads back and
 * writes again to the same bytes. The count is after the last space: a frame may hold spaces, never
 * a line break, and a JVM frame never holds {@code ;} (the JVM forbids it in class and method names).
 *
 * @param counts samples per stack, each at least 1
 */
public record CollapsedStacks(SortedMap<String, Long> counts) {
    public static final String FRAME_SEPARATOR = ";";

    public CollapsedStacks {
        counts.forEach((stack, n) -> {
            if (stack.isEmpty() || stack.contains("\n") || stack.contains("\r") || n < 1) {
                throw new IllegalArgumentException("not a collapsed stack: '" + stack + "' " + n);
            }
        });
        TreeMap<String, Long> sorted = new TreeMap<>();
        sorted.putAll(counts);
        counts = Collections.unmodifiableSortedMap(sorted);
    }

    /** All samples, over every stack. */
    public long samples() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    public String format() {
        StringBuilder sb = new StringBuilder();
        counts.forEach((stack, n) -> sb.append(stack).append(' ').append(n).append('\n'));
        return sb.toString();
    }

    /**
     * Reads another tool's output too: blank lines are skipped and a stack on two lines counts
     * the sum, as flamegraph.pl does.
     *
     * @param source names the text in a refusal (the file)
     */
    public static CollapsedStacks parse(String text, String source) {
        SortedMap<String, Long> counts = new TreeMap<>();
        int n = 0;
        for (String line : text.split("\r?\n", -1)) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            long count = space > 0 ? parseCount(line.substring(space + 1)) : -1;
            if (count < 1) {
                throw new UsageException(source + ": line " + n + ": expected 'frame;frame;... COUNT' with COUNT a whole number above 0, got '" + line + "'");
            }
            counts.merge(line.substring(0, space), count, Long::sum);
        }
        return new CollapsedStacks(counts);
    }

    private static long parseCount(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public static CollapsedStacks read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
    }

    public void write(Path file) {
        try {
            Files.writeString(file, format(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
