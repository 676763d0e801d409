package dev.loomflux.lab.telemetry;

/**
 * One sample of a process, or of a group of processes summed (all PostgreSQL backends).
 *
 * @param epochMs when it was taken
 * @param cpuPct  CPU used since the previous sample, 100 = one core busy
 * @param rssMb   resident set size
 * @param threads OS threads
 * @param fds     open file descriptors; -1 where the OS does not tell (OSHI gives -1 without permission)
 */
public record Reading(long epochMs, double cpuPct, double rssMb, int threads, long fds) {
}
