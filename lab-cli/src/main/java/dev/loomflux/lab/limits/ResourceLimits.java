package dev.loomflux.lab.limits;

import dev.loomflux.lab.UsageException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a container runtime would give each target: a CPU quota that may be fractional and a hard
 * memory limit; 0 means none.
 */
public record ResourceLimits(double cpus, long memoryBytes) {
    public static final ResourceLimits NONE = new ResourceLimits(0, 0);
    public static final long MIN_MEMORY = 16L << 20;
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)([kmg]?)", Pattern.CASE_INSENSITIVE);

    public ResourceLimits {
        if (cpus < 0 || cpus > 1024 || Double.isNaN(cpus)) {
            throw new UsageException("cpus " + cpus + ": expected a number of CPUs above 0, e.g. 0.5");
        }
        if (memoryBytes < 0 || memoryBytes > 0 && memoryBytes < MIN_MEMORY) {
            throw new UsageException("memory " + memoryBytes + " bytes: expected at least 16m");
        }
    }

    /** {@code 512m}, {@code 1g}, {@code 1.5g}, or plain bytes; {@code where} names the flag or field in errors. */
    public static long parseMemory(String text, String where) {
        Matcher m = SIZE.matcher(text.strip());
        if (!m.matches()) {
            throw new UsageException(where + " " + text + ": expected a size such as 512m or 1g");
        }
        double n = Double.parseDouble(m.group(1));
        long unit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 1L << 10;
            case "m" -> 1L << 20;
            case "g" -> 1L << 30;
            default -> 1;
        };
        return Math.round(n * unit);
    }

    /** "0.5 CPU, 1024 MB memory" */
    public String describe() {
        String c = cpus > 0 ? (cpus == Math.rint(cpus) ? Long.toString((long) cpus) : Double.toString(cpus)) + " CPU quota" : null;
        String m = memoryBytes > 0 ? memoryBytes / (1 << 20) + " MB memory limit" : null;
        return c == null ? m : m == null ? c : c + ", " + m;
    }

    /** These limits where set, else {@code base}'s, field by field: a target's own over the experiment's. */
    public ResourceLimits over(ResourceLimits base) {
        return new ResourceLimits(cpus > 0 ? cpus : base.cpus, memoryBytes > 0 ? memoryBytes : base.memoryBytes);
    }

    public boolean any() {
        return cpus > 0 || memoryBytes > 0;
    }

    /** The processor count a container runtime would show the JVM: the quota rounded up. */
    public int visibleProcessors(int pinned) {
        return cpus > 0 ? Math.min(pinned, (int) Math.ceil(cpus)) : pinned;
    }
}
