package dev.loomflux.lab.run;

import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.Home;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.process.ManagedProcess;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.sut.Http;
import dev.loomflux.lab.sut.Placement;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.telemetry.Phase;
import dev.loomflux.targets.TargetConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The run's target starter for both designs: starts a target's JVM where the design asks, says it is ready (and when it
 * did not use its --aot-cache), reads its own /config, and stops the load on it should it die.
 */
final class JvmStarter implements TargetStarter {
    private final Home home;
    private final LabProcesses processes;
    private final RunContext run;
    private final Measurer measurer;
    private final Experiment experiment;
    /** The live target's pid for the run's sampler; 0 between targets and in rounds, whose blocks read each JVM at their edges. */
    private final AtomicLong watchedPid = new AtomicLong();
    private final AtomicReference<Cgroup> watchedGroup = new AtomicReference<>();

    /** @param experiment the experiment as the run starts it: its idle time, and its sets in the paired design */
    JvmStarter(Home home, LabProcesses processes, RunContext run, Measurer measurer, Experiment experiment) {
        this.processes = processes;
        this.home = home;
        this.run = run;
        this.measurer = measurer;
        this.experiment = experiment;
    }

    /** The sequential design's live target, for the run's sampler: none between targets. */
    List<Long> watchedPids() {
        long pid = watchedPid.get();
        return pid == 0 ? List.of() : List.of(pid);
    }

    /** The live target's cgroup when it runs limited, for the run's sampler; else null. */
    Cgroup watchedGroup() {
        return watchedGroup.get();
    }

    @Override
    public TargetVisit alone(TargetSpec spec, int repeat) {
        long[] launchedAt = new long[1];
        RunningTarget target = start(spec, "", run.cpus().targetPlacement(), p -> {
            launchedAt[0] = System.currentTimeMillis();
            watchedPid.set(p.pid());
        });
        Runnable unwatch = () -> {
            watchedPid.set(0);
            watchedGroup.set(null);
        };
        stopLoadWhenItDies(target, spec.name());
        try {
            watchedGroup.set(target.cgroup());
            String affinity = CpuPlan.affinityOf(target.process().pid());
            run.log().line(spec.name() + ": ready in " + target.startupMillis() + " ms (pid " + target.process().pid() + ", CPUs " + affinity + ")");
            sayAotCacheProblem(target);
            TargetConfig config = config(target);
            long ready = System.currentTimeMillis();
            Pause.sleep(experiment.idle());
            Result.TargetJvm facts = new Result.TargetJvm(target.startupMillis(), affinity, config);
            return new StartedTarget(target, repeat,
                    List.of(new Phase("startup", launchedAt[0], ready), new Phase("idle", ready, System.currentTimeMillis())),
                    r -> r.withRepeat(repeat, facts), measurer, unwatch);
        } catch (RuntimeException e) {
            target.close();
            unwatch.run();
            throw e;
        }
    }

    @Override
    public TargetVisit beside(TargetSpec spec, int set) {
        long[] launchedAt = new long[1];
        int sets = experiment.sets();
        RunningTarget target = start(spec, sets > 1 ? ".s" + set : "", run.cpus().startPlacement(), p -> launchedAt[0] = System.currentTimeMillis());
        try {
            run.cpus().move(target.process().pid(), run.cpus().target());
            String affinity = CpuPlan.affinityOf(target.process().pid());
            run.log().line(spec.name() + ": ready in " + target.startupMillis() + " ms (started beside the others; pid " + target.process().pid()
                    + ", now on CPUs " + affinity + ")" + (sets > 1 ? ", set " + set + " of " + sets : ""));
            sayAotCacheProblem(target);
            stopLoadWhenItDies(target, sets > 1 ? spec.name() + "#" + set : spec.name());
            long ready = System.currentTimeMillis();
            Result.TargetJvm facts = new Result.TargetJvm(target.startupMillis(), affinity, config(target));
            return new StartedTarget(target, set, List.of(new Phase("startup", launchedAt[0], ready)), r -> r.withSet(set, facts), measurer, () -> { });
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /**
     * @param set ".s2" for a set's JVM where the sets run side by side, each with its log (as its other files are named,
     *            ResultFiles.Tag); "" for a target's one log, which its repeats and fresh JVMs append to
     */
    private RunningTarget start(TargetSpec spec, String set, Placement placement, Consumer<ManagedProcess> launched) {
        return RunningTarget.start(processes, home, spec, run.settings(), placement, run.stubUri(), run.database(), run.dir().resolve(spec.name() + set + ".log"),
                launched);
    }

    private void sayAotCacheProblem(RunningTarget target) {
        target.aotCacheProblem().ifPresent(p -> run.log().line(target.spec().name() + ": started without its --aot-cache: " + p));
    }

    /** A target that dies under load: its load ends within a second instead of hammering a closed port until the profile ends. */
    private void stopLoadWhenItDies(RunningTarget target, String name) {
        target.process().onExit().thenRun(() -> {
            if (!target.process().stoppedByLab()) {
                run.log().line(name + ": " + target.exitHeadline() + "; stopping its load");
                run.driver().cancel();
            }
        });
    }

    /** The target's own account of its settings; null for a command's target (which has no /config) or when it does not answer. */
    private static TargetConfig config(RunningTarget target) {
        if (target.spec().command() != null) {
            return null;
        }
        try {
            return Json.read(Http.get(target.base().resolve("/config"), Duration.ofSeconds(10)).body(), TargetConfig.class);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
