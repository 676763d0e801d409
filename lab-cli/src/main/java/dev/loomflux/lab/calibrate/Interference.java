package dev.loomflux.lab.calibrate;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How much of the driver's and the server's CPUs went to other processes during one measurement.
 * On a machine shared with other benchmarks this, more than either load generator, decided many
 * calibration rounds: /proc/stat gives each CPU's busy time, and the processes under test (lab
 * JVM, the load generators it ran and waited for, server) are subtracted. Linux only; elsewhere the
 * figures are NaN.
 */
final class Interference {
    /** /proc/stat counts in USER_HZ, 100 per second on every mainstream Linux. */
    private static final double MS_PER_TICK = 10;
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** CPU used by others, 100 = one core for the whole measurement. */
    record OthersCpu(double onDriverPct, double onServerPct) {
        boolean quiet(double thresholdPct) {
            return onDriverPct < thresholdPct && onServerPct < thresholdPct;
        }
    }

    private final List<Integer> driverCpus;
    private final List<Integer> serverCpus;
    private final long serverPid;
    private final long driverTicks;
    private final long serverTicks;
    private final long ownNanos;
    private final long childrenTicks;
    private final long serverNanos;
    private final long startNanos = System.nanoTime();

    private Interference(List<Integer> driverCpus, List<Integer> serverCpus, long serverPid) {
        this.driverCpus = driverCpus;
        this.serverCpus = serverCpus;
        this.serverPid = serverPid;
        this.driverTicks = busyTicks(driverCpus);
        this.serverTicks = busyTicks(serverCpus);
        this.ownNanos = OS.getProcessCpuTime();
        this.childrenTicks = childrenTicks();
        this.serverNanos = cpuNanos(serverPid);
    }

    static Interference start(List<Integer> driverCpus, List<Integer> serverCpus, long serverPid) {
        return new Interference(driverCpus, serverCpus, serverPid);
    }

    /** Call once the generators it ran (wrk, JMeter) have ended: their CPU counts as the lab's own. */
    OthersCpu stop() {
        if (driverTicks < 0 || serverTicks < 0) {
            return new OthersCpu(Double.NaN, Double.NaN);
        }
        double wallMs = (System.nanoTime() - startNanos) / 1e6;
        double driverBusy = 100 * (busyTicks(driverCpus) - driverTicks) * MS_PER_TICK / wallMs;
        double serverBusy = 100 * (busyTicks(serverCpus) - serverTicks) * MS_PER_TICK / wallMs;
        // The lab's JVM and the generators it started and waited for: wrk, and JMeter, which without this read as
        // 93-97% of the driver's core taken by others in every round.
        double own = 100 * ((OS.getProcessCpuTime() - ownNanos) / 1e6 + (childrenTicks() - childrenTicks) * MS_PER_TICK) / wallMs;
        double server = 100 * (cpuNanos(serverPid) - serverNanos) / 1e6 / wallMs;
        // When driver and server share CPUs (no pinning, or a 2-CPU support set), the split is not attributable.
        boolean shared = driverCpus.stream().anyMatch(serverCpus::contains);
        double onDriver = driverBusy - own - (shared ? server : 0);
        double onServer = serverBusy - server - (shared ? own : 0);
        return new OthersCpu(Math.max(0, onDriver), Math.max(0, onServer));
    }

    private static long cpuNanos(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
    }

    /** CPU of this process's children that ended and were waited for (cutime + cstime of /proc/self/stat), in ticks; 0 if unreadable. */
    private static long childrenTicks() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // Fields after the command name, which is in parentheses and may hold spaces: cutime and cstime are the 14th and 15th.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Busy ticks (user, nice, system, irq, softirq, steal) summed over the CPUs; -1 if unreadable. */
    static long busyTicks(List<Integer> cpus) {
        try {
            return busyTicks(Files.readAllLines(Path.of("/proc/stat")), cpus);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static long busyTicks(List<String> procStat, List<Integer> cpus) {
        long sum = 0;
        for (String line : procStat) {
            if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            if (cpus.contains(Integer.parseInt(f[0].substring(3)))) {
                // user nice system idle iowait irq softirq steal: all but idle and iowait.
                sum += Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3])
                        + Long.parseLong(f[6]) + Long.parseLong(f[7]) + Long.parseLong(f[8]);
            }
        }
        return sum;
    }
}
