package dev.loomflux.lab.sut;

import java.util.List;

/**
 * Where a process runs: a command prefix such as {@code taskset -c 0} and how many CPUs that is,
 * so the JVM sizes its pools (GC threads, event loops, ForkJoin) for its share, not the machine.
 */
public record Placement(List<String> prefix, int cpus) {
    public static final Placement ANYWHERE = new Placement(List.of(), 0);

    public Placement {
        prefix = List.copyOf(prefix);
    }

    List<String> jvmFlags() {
        return cpus > 0 ? List.of("-XX:ActiveProcessorCount=" + cpus) : List.of();
    }
}
