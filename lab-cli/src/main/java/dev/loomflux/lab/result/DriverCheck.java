package dev.loomflux.lab.result;

/** A result's "driver": the load driver's own CPU while it measured, and whether it could have been the bottleneck. */
public record DriverCheck(int cpus, double cpuPctMean, double cpuPctMax, boolean saturated, boolean trustworthy) {
}
