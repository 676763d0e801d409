package dev.loomflux.lab.run;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.ExperimentDescription.LimitsDescription;
import dev.loomflux.lab.result.ExperimentDescription.ProfileDescription;
import dev.loomflux.lab.result.ExperimentDescription.ScenarioDescription;
import dev.loomflux.lab.result.ExperimentDescription.StageDescription;
import dev.loomflux.lab.result.ExperimentDescription.TargetDescription;
import dev.loomflux.lab.result.ExperimentDescription.ThinkDescription;
import dev.loomflux.lab.result.Hardware;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.TargetSpec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** What results.json records of the machine and of the experiment, read from the run's own objects. */
final class Described {
    private Described() {
    }

    static Environment environment(Home home, Jdk targetJdk, CpuPlan cpus, String database) {
        String status = git(home, "status", "--porcelain", "--untracked-files=no");
        Hardware hardware = HardwareReader.read();
        return new Environment(System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                // The machine's CPUs: the lab itself is pinned by now, so availableProcessors() would say 1.
                new oshi.SystemInfo().getHardware().getProcessor().getLogicalProcessorCount(),
                // Not Linux: no model name, the architecture instead.
                hardware.modelName() == null ? System.getProperty("os.arch") : hardware.modelName(), readMemoryMb(),
                new Environment.JdkFacts(targetJdk.version(), targetJdk.home().toString(), System.getProperty("java.version")),
                new Environment.Pinning(cpus.applied(), CpuPlan.list(cpus.target()), CpuPlan.list(cpus.driver()), CpuPlan.list(cpus.support()), cpus.note(),
                        // Read back, not assumed: where the lab (the driver) may actually run right now.
                        CpuPlan.affinityOf(ProcessHandle.current().pid())),
                database, Environment.buildVersions(), git(home, "rev-parse", "HEAD"), status == null ? null : !status.isBlank(),
                hardware);
    }

    static ExperimentDescription experiment(Experiment e, LaunchSettings settings, String driver) {
        List<TargetDescription> targets = e.targets().stream().map(Described::target).toList();
        List<ScenarioDescription> scenarios = e.scenarios().stream()
                .map(s -> new ScenarioDescription(s.name(), s.kind().id(), s.orderedParams(), s.dist(), s.path())).toList();
        LimitsDescription limits = null;
        // Present whenever a target runs limited.
        if (settings.limits().any() || e.targets().stream().anyMatch(t -> t.limits().any())) {
            LimitsDescription own = limits(settings.limits());
            Optional<String> unsupported = Cgroup.unsupported();
            limits = new LimitsDescription(own.cpus(), own.memoryMb(), unsupported.isEmpty(),
                    unsupported.orElse(Cgroup.mechanism() + "; the JVM sees the quota rounded up (ActiveProcessorCount)"));
        }
        return new ExperimentDescription(e.name(), targets, scenarios, profile(e.profile()), seconds(e.warmup()), seconds(e.cooldown()), e.inRounds() ? null : e.repeats(), e.inRounds() ? e.sets() : null,
                settings.heap(), settings.describedFlags(), limits, e.sweep() == null ? null
                        : new ExperimentDescription.SweepPlan(e.sweep().axes().stream().map(a -> new SweepMap.AxisValues(a.name(), a.label(), a.values())).toList(),
                        seconds(e.sweep().cellWarmup())),
                e.inRounds() ? new ExperimentDescription.DesignDescription("paired", e.design().rounds(), seconds(e.design().block()), seconds(e.design().leadIn()),
                        e.design().leadInRounds(), e.design().fixedRounds(), e.design().budget() == null ? null : seconds(e.design().budget()), e.freshJvms() ? true : null) : new ExperimentDescription.DesignDescription("sequential", null, null, null, null), driver);
    }

    private static TargetDescription target(TargetSpec t) {
        var c = t.command();
        return new TargetDescription(t.name(), t.app() == null ? null : t.app().name().toLowerCase(), c == null ? null : c.argv(),
                c == null ? null : c.ready(), c == null ? null : c.readyTimeout().toSeconds(), t.properties(), t.jvmArgs(),
                t.limits().any() ? limits(t.limits()) : null);
    }

    private static ProfileDescription profile(LoadProfile p) {
        ThinkDescription think = p.think().none() ? null : new ThinkDescription(p.think().min().toMillis(), p.think().max().toMillis());
        if (p instanceof LoadProfile.Stages s) {
            return new ProfileDescription(p.kind(), s.stages().stream().map(x -> new StageDescription(seconds(x.duration()), x.users())).toList(),
                    null, null, null, null, null, think);
        } else if (p instanceof LoadProfile.Fixed f) {
            return new ProfileDescription(p.kind(), null, f.users(), seconds(f.duration()), null, null, null, think);
        } else if (p instanceof LoadProfile.Loops l) {
            return new ProfileDescription(p.kind(), null, l.users(), null, l.requests(), null, null, think);
        } else if (p instanceof LoadProfile.Burst b) {
            return new ProfileDescription(p.kind(), null, b.users(), null, b.requests(), null, null, think);
        }
        LoadProfile.Rate r = (LoadProfile.Rate) p;
        return new ProfileDescription(p.kind(), null, null, seconds(r.duration()), null, r.rps(), r.maxInFlight(), null);
    }

    private static double seconds(java.time.Duration d) {
        return d.toMillis() / 1000.0;
    }

    private static LimitsDescription limits(ResourceLimits l) {
        return new LimitsDescription(l.cpus() > 0 ? l.cpus() : null, l.memoryBytes() > 0 ? l.memoryBytes() / (1 << 20) : null, null, null);
    }

    private static long readMemoryMb() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getTotalMemorySize() / (1024 * 1024);
        }
        return -1;
    }

    private static String git(Home home, String... args) {
        try {
            String[] cmd = new String[args.length + 3];
            cmd[0] = "git";
            cmd[1] = "-C";
            cmd[2] = home.root().toString();
            System.arraycopy(args, 0, cmd, 3, args.length);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
