package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.run.CpuPlan;
import dev.loomflux.lab.run.DriverCpu;
import dev.loomflux.lab.target.Downstream;
import dev.loomflux.lab.target.LaunchSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A benchmark of the lab itself: how many requests per second the driver can offer from its CPU
 * set, against the stub at 0 ms placed on the target's CPUs. If the driver is not saturated, its
 * ceiling is estimated from its CPU cost per request.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Measure the load driver's own ceiling on its CPU set against the stub at 0 ms.")
public final class CalibrateCommand implements Callable<Integer> {
    @Option(names = "--connections", defaultValue = "64", description = "Connections. Default: ${DEFAULT-VALUE}.")
    int connections;

    @Option(names = "--duration", defaultValue = "10s", description = "Measured time. Default: ${DEFAULT-VALUE}.")
    String duration;

    @Mixin
    CpuOptions cpuOptions;

    @Mixin
    JvmOptions jvm;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        // The stub under load runs where a target would.
        CpuPlan cpus = cpuOptions.plan();
        LaunchSettings settings = jvm.settings();
        Duration measured = dev.loomflux.lab.experiment.ExperimentReader.duration(duration,
                m -> new dev.loomflux.lab.UsageException("--duration " + duration + ": " + m));
        Home home = Home.detect();
        long self = ProcessHandle.current().pid();
        String before = CpuPlan.affinityOf(self);
        cpus.move(self, cpus.driver());
        Path logs = home.results().resolve("calibrate");
        try (Downstream stub = Downstream.start(home, settings, cpus.targetPlacement(), logs)) {
            out.printf("calibrate: stub on CPUs %s, driver on CPUs %s (%s), %d connections%n",
                    CpuPlan.affinityOf(stub.pid()), CpuPlan.list(cpus.driver()), cpus.note(), connections);
            out.flush();
            LoadSpec warm = new LoadSpec(stub.base(), "/delay?ms=0", new Profile.Fixed(connections, Duration.ofSeconds(10)), cpus.driver().size(), Duration.ofSeconds(10));
            LoadDriver.run(warm, s -> { });
            LoadSpec spec = new LoadSpec(stub.base(), "/delay?ms=0", new Profile.Fixed(connections, measured), cpus.driver().size(), Duration.ofSeconds(10));
            Measurement m;
            DriverCpu cpu = new DriverCpu(cpus.driver().size());
            try (cpu) {
                m = LoadDriver.run(spec, s -> { });
            }
            double seconds = m.elapsed().toMillis() / 1000.0;
            double rps = m.responses() / seconds;
            double cpuShare = cpu.mean() / 100.0;
            double usPerRequest = cpuShare * 1_000_000 / Math.max(1, rps);
            double ceiling = cpus.driver().size() * 1_000_000 / Math.max(0.001, usPerRequest);
            out.printf("calibrate: %.0f requests/s, p99 %.2f ms, errors %d%n", rps, m.latency().getValueAtPercentile(99) / 1e6, m.errors().total());
            out.printf("calibrate: driver CPU %.0f%% of one core (%d CPU(s)), %.1f us CPU per request%n", cpu.mean(), cpus.driver().size(), usPerRequest);
            out.printf("calibrate: driver ceiling %s%.0f requests/s on its CPU set%n",
                    cpu.saturated() ? "" : "~", cpu.saturated() ? rps : ceiling);
            if (!cpu.saturated()) {
                out.println("calibrate: the driver was not saturated (the stub was the limit); the ceiling is estimated from its CPU cost per request");
            }
            out.flush();
            return 0;
        } finally {
            cpus.restore(self, before);
        }
    }
}
