package dev.loomflux.lab.run;

import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.cpuprofile.AsyncAgent;
import dev.loomflux.lab.cpuprofile.Profiler;
import dev.loomflux.lab.cpuprofile.SamplerCost;
import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.jdk.JdkLocator;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.result.ProfilerCost;
import dev.loomflux.lab.sut.LaunchSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The profiler-cost check where a run starts (docs/telemetry.md, "What the profiler costs on this host"): under async-profiler,
 * before any target starts, {@link SamplerCost}'s probe with and without the targets' sampler, on the targets' CPUs with their
 * flags; past the limit, JFR's cost the same way, for the line. JFR, the default, is not checked in a run (a default run stays
 * as fast); {@link #main} checks any sampler once, for the docs.
 */
final class ProfilerCheck {
    private ProfilerCheck() {
    }

    /**
     * Logs one line and returns the figures for results.json; none when the run samples with JFR.
     *
     * @param runDir the probes' logs go to its {@code profiler-cost/}
     */
    static List<ProfilerCost> atStart(LaunchSettings settings, CpuPlan cpus, LabProcesses owner, Path runDir, Consumer<String> log, Stop stop) {
        if (!settings.profiler().async()) {
            return List.of();
        }
        Path dir = runDir.resolve("profiler-cost");
        ProfilerCost own = measure(settings, cpus, owner, dir, stop, SamplerCost.PAIRS);
        ProfilerCost jfr = own.over() && !stop.requested() ? measure(jfr(settings), cpus, owner, dir, stop, SamplerCost.PAIRS) : null;
        log.accept(SamplerCost.line(own, jfr));
        return jfr == null ? List.of(own) : List.of(own, jfr);
    }

    private static ProfilerCost measure(LaunchSettings settings, CpuPlan cpus, LabProcesses owner, Path dir, Stop stop, int pairs) {
        Path own = dir.resolve(settings.profiler().label());
        List<String> with = new ArrayList<>(settings.jvmFlags());
        // The targets' CPU count, as RunningTarget gives them: their pools are sized for their share.
        if (cpus.targetPlacement().cpus() > 0) {
            with.add("-XX:ActiveProcessorCount=" + cpus.targetPlacement().cpus());
        }
        with.addAll(settings.profilerFlags(own));
        SamplerCost.Probe probe = SamplerCost.Probe.ofSampler(settings.jdk(), cpus.targetPlacement().prefix(), with, own);
        return SamplerCost.measure(settings.profiler(), probe, pairs, owner, stop::requested);
    }

    private static LaunchSettings jfr(LaunchSettings s) {
        return new LaunchSettings(s.jdk(), s.host(), s.heap(), s.limits(), s.aotCache(), null);
    }

    /**
     * {@code java -cp lab-cli/target/loomflux-lab.jar dev.loomflux.lab.run.ProfilerCheck [jfr|async|async-wall] [pairs]}: the check
     * alone, with a run's defaults (the JDK it would find, its default pinning and heap), its line and figures on stdout.
     */
    public static void main(String[] args) throws IOException {
        Profiler profiler = Profiler.parse(args.length > 0 ? args[0] : "jfr", "the sampler");
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : SamplerCost.PAIRS;
        Jdk jdk = JdkLocator.system().locate(null);
        LaunchSettings settings = new LaunchSettings(jdk, "127.0.0.1", LaunchSettings.DEFAULT_HEAP, ResourceLimits.NONE, Set.of(),
                profiler.async() ? AsyncAgent.load(profiler, jdk) : null);
        CpuPlan cpus = CpuPlan.plan(true, Map.of());
        Path dir = Files.createTempDirectory("loomflux-profiler-cost");
        try (LabProcesses owner = new LabProcesses()) {
            ProfilerCost cost = measure(settings, cpus, owner, dir, owner::stopping, pairs);
            System.out.println(SamplerCost.line(cost, null));
            System.out.println("JDK " + jdk.version() + "; " + cpus.note() + ", probe on CPUs " + CpuPlan.list(cpus.target()));
            System.out.println("ops/s without: " + cost.withoutOpsPerS() + "; with: " + cost.withOpsPerS() + "; logs in " + dir);
        }
    }
}
