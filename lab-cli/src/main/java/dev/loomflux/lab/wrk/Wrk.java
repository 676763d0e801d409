package dev.loomflux.lab.wrk;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * wrk (the Debian package {@code wrk}) as a reference load generator: native, event-driven and
 * about as cheap per request as HTTP/1.1 load gets, so it shows how much the lab's own driver costs.
 */
public final class Wrk {
    /** A wrk run with how much CPU it used: 100 = one core busy for the whole run. */
    public record RunWithCpu(WrkResult result, double cpuPct, List<String> command) {
    }

    private final LabProcesses owner;
    private final Path executable;

    private Wrk(LabProcesses owner, Path executable) {
        this.owner = owner;
        this.executable = executable;
    }

    /**
     * @param owner stops a wrk that runs when the lab is stopped
     * @throws UsageException when wrk is not on the PATH
     */
    public static Wrk locate(LabProcesses owner) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "wrk");
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return new Wrk(owner, candidate);
                }
            }
        }
        throw new UsageException("wrk not found on PATH: install the package wrk (apt-get install wrk)");
    }

    /**
     * Runs wrk and waits for it.
     *
     * @param prefix      e.g. {@code taskset -c 1}; wrk's threads inherit the affinity
     * @param threads     {@code -t}; wrk needs at least one connection per thread
     * @param connections {@code -c}
     * @param duration    {@code -d}, whole seconds (wrk's smallest time unit)
     */
    public RunWithCpu run(List<String> prefix, int threads, int connections, Duration duration, URI url, Path log) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(executable.toString());
        cmd.add("-t" + Math.min(threads, connections));
        cmd.add("-c" + connections);
        cmd.add("-d" + Math.max(1, duration.toSeconds()) + "s");
        cmd.add("--latency");
        // The same request the lab sends (its Hyperfoil requests carry this header too).
        cmd.add("-H");
        cmd.add("cache-control: no-store");
        cmd.add(url.toString());
        ManagedProcess p = ManagedProcess.start(owner, "wrk", cmd, log);
        double cpuPct = watch(p, duration.plusSeconds(30));
        if (p.exitValue() != 0) {
            throw new LabException("wrk exited with " + p.exitValue() + ": " + p.logTail(3).replace('\n', ' '));
        }
        try {
            return new RunWithCpu(WrkOutput.parse(Files.readString(log, StandardCharsets.UTF_8)), cpuPct, cmd);
        } catch (IOException | IllegalArgumentException e) {
            throw new LabException("wrk: " + e.getMessage() + " (" + log + ")", e);
        }
    }

    /**
     * Waits for exit, sampling the process's CPU time (all threads, from /proc) as it goes: once it
     * has exited the figure is gone, so the last sample stands for the run (it misses < 0.25 s).
     */
    private static double watch(ManagedProcess p, Duration limit) {
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        double pct = Double.NaN;
        try (p) {
            while (p.isAlive()) {
                if (System.nanoTime() > deadline) {
                    throw new LabException("wrk did not finish within " + limit.toSeconds() + " s");
                }
                Optional<Duration> cpu = ProcessHandle.of(p.pid()).flatMap(h -> h.info().totalCpuDuration());
                long wall = System.nanoTime() - start;
                if (cpu.isPresent() && wall > 0) {
                    pct = 100.0 * cpu.get().toNanos() / wall;
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LabException("interrupted while wrk was running");
                }
            }
        }
        return pct;
    }
}
