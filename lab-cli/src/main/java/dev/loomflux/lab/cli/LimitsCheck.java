package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.TargetSpec;
import java.util.List;

/**
 * Limits that cannot work, refused before anything starts: {@code limits: {cpus: 0.001}} passed the
 * reader and then every target failed on "cannot write 100 to .../cpu.cfs_quota_us: Invalid argument"
 * with exit 0, and {@code --cpus 64} on a target pinned to one CPU limited nothing, without a word.
 */
public final class LimitsCheck {
    /** The kernel's smallest CFS quota is 1 ms per period. */
    public static final double MIN_CPUS = 1_000.0 / Cgroup.PERIOD_US;

    private LimitsCheck() {
    }

    /**
     * @param targetCpus the CPUs the targets run on (pinned, or all of them)
     * @param cpusFlag   whether --cpus was given (it replaces the file's top-level limits.cpus)
     * @param memoryFlag likewise for --memory
     * @param file       the experiment file, to name its fields; null when the run is described by flags
     * @throws UsageException naming the first field or flag whose limit cannot work
     */
    public static void require(List<TargetSpec> targets, LaunchSettings settings, List<Integer> targetCpus, boolean cpusFlag, boolean memoryFlag,
                               String file) {
        long heap = ResourceLimits.parseMemory(settings.heap(), "--heap");
        for (String name : settings.aotCache()) {
            if (!name.equals("*") && targets.stream().noneMatch(t -> t.name().equals(name))) {
                throw new UsageException("--aot-cache-for " + name + ": no such target in this run (" + String.join(", ", targets.stream().map(TargetSpec::name).toList()) + ")");
            }
        }
        for (TargetSpec t : targets) {
            ResourceLimits limits = t.limits().over(settings.limits());
            double cpus = limits.cpus();
            if (cpus > 0) {
                String where = where(t, t.limits().cpus() > 0, cpusFlag, "cpus", file) + " " + number(cpus);
                if (cpus < MIN_CPUS) {
                    throw new UsageException(where + ": below the kernel's smallest CPU quota, " + number(MIN_CPUS)
                            + " (1 ms per " + Cgroup.PERIOD_US / 1000 + " ms period)");
                }
                if (cpus > targetCpus.size()) {
                    throw new UsageException(where + ": more than the " + targetCpus.size() + " CPU(s) the targets run on (" + CpuPlan.list(targetCpus)
                            + "), so it would limit nothing; give them more CPUs (--target-cpus) or a quota of at most " + targetCpus.size());
                }
            }
            long memory = limits.memoryBytes();
            if (memory > 0 && memory <= heap) {
                throw new UsageException(where(t, t.limits().memoryBytes() > 0, memoryFlag, "memory", file) + " " + (memory >> 20) + "m"
                        + ": not above the targets' heap of " + settings.heap() + " (--heap, all of it committed at start); a JVM needs its heap"
                        + " and 150-250 MB beside it, so give at least " + ((heap >> 20) + 256) + "m or a smaller --heap");
            }
        }
    }

    private static String where(TargetSpec t, boolean own, boolean flag, String field, String file) {
        String in = file == null ? "" : file + ": ";
        return own ? in + "target " + t.name() + ": limits." + field : flag ? "--" + field : in + "limits." + field;
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
