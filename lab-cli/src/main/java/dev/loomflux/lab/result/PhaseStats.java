package dev.loomflux.lab.result;

/**
 * One phase of a result (startup, idle, warmup, measured, the profile's stages): the target's
 * resources as ranges, what its limits did, and the support processes' CPU. Times in s relative
 * to the start of the measured load.
 */
public record PhaseStats(String name, double fromS, double toS, int samples, TargetRanges target, CgroupUse limits, Role stub, Role db) {
    /** Ranges are null when the phase had no reading (shorter than a second, or the process was gone). */
    public record TargetRanges(Range cpuPct, Range rssMb, Range threads, Range fds) {
    }

    /** Counts stay integers in the JSON, hence Number; {@code mean} only for CPU. */
    public record Range(Number min, Number mean, Number max) {
    }

    /** The stub's or the database's CPU; the role is absent when the run had no such process. */
    public record Role(Range cpuPct) {
    }

    /** The cgroup's accounting over the phase, as results.json "limits" over the measured window. */
    public record CgroupUse(double cpuPct, double throttledPct, double throttledS, double memoryMaxMb, long oomKills) {
    }
}
