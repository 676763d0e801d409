package dev.loomflux.lab.telemetry;

/**
 * One sample of a process, or of a group of processes summed (all PostgreSQL backends).
 *
 * @param epochMs when it was taken
 * @param cpuPct  CPU used since the previous sample, 100 = one core busy
 * @param rssMb   resident set size
 * @param threads OS threads
 * @param fds     open file descriptors; -1 where the OS does not tell (OSHI gives -1 without permission)
 * @param jit     the JVM's JIT compilations so far, for roles watched as JVMs; null where no hsperfdata was found
 */
public record Reading(long epochMs, double cpuPct, double rssMb, int threads, long fds, Jit jit) {
    /**
     * Cumulative JIT counters of a JVM (what {@code jstat -compiler} prints).
     *
     * @param compiles      methods compiled (C1 and C2, OSR included), counted when each finishes
     * @param compileMs     time the finished compilations took
     * @param compilerCpuMs CPU time of the compiler threads, compilations in progress included; -1 where unknown
     */
    public record Jit(long compiles, double compileMs, double compilerCpuMs) {
    }
}
