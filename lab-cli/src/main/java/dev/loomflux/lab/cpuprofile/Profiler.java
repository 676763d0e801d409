package dev.loomflux.lab.cpuprofile;

import dev.loomflux.lab.UsageException;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What takes a target's CPU samples ({@code --cpu-profiler}), the same for every target of a run so that their profiles
 * compare: JFR's own sampler, Java frames only; or async-profiler, loaded as an agent at the target's start, which
 * also sees native and kernel frames and the JVM's own threads (GC, JIT compilers). Every one samples every 20 ms, JFR's
 * default: the period whose cost docs/telemetry.md measured.
 */
public enum Profiler {
    /** JFR's {@code jdk.ExecutionSample}: Java threads running Java code, every 20 ms of wall time ({@code settings=default}). */
    JFR("jfr", "JFR"),
    /** async-profiler's {@code cpu} event: every 20 ms of a thread's CPU time, any thread of the process, native and kernel frames too. */
    ASYNC("async", "async-profiler"),
    /**
     * async-profiler's {@code wall} event: every thread every 20 ms of wall time, running or not, so its samples say where the
     * threads' time goes, waiting included, not where the CPU goes: its profile has shares but no µs of CPU per request.
     */
    ASYNC_WALL("async-wall", "async-profiler (wall clock)");

    /** The period every profiler samples at: JFR's default, whose cost docs/telemetry.md measured. */
    public static final int INTERVAL_MS = 20;

    private final String label;
    private final String described;

    Profiler(String label, String described) {
        this.label = label;
        this.described = described;
    }

    /** The name on the command line and in results.json. */
    public String label() {
        return label;
    }

    /** The name in a sentence of the report: "the blocks' async-profiler samples". */
    public String described() {
        return described;
    }

    /** Whether its samples are CPU time, to be shared out as CPU per request; a wall-clock sample is not. */
    public boolean cpu() {
        return this != ASYNC_WALL;
    }

    public boolean async() {
        return this != JFR;
    }

    /** A results file's {@code profile.profiler} for a sentence; the label itself where this lab knows no such profiler. */
    public static String describe(String label) {
        return ofLabel(label).map(Profiler::described).orElse(label);
    }

    private static Optional<Profiler> ofLabel(String label) {
        return Arrays.stream(values()).filter(p -> p.label.equals(label)).findFirst();
    }

    /** @throws UsageException naming the flag and the choices */
    public static Profiler parse(String value, String flag) {
        return ofLabel(value).orElseThrow(() -> new UsageException(flag + " " + value
                + ": expected one of " + Arrays.stream(values()).map(Profiler::label).collect(Collectors.joining(", "))));
    }
}
