package dev.loomflux.lab.run;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.paired.PairedRounds;
import dev.loomflux.lab.procedure.ScenarioCell;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.verdict.Stopping;
import dev.loomflux.lab.verdict.SurvivalVerdicts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The paired design: every JVM of every set started up front, side by side on the target's and the driver's CPUs
 * (docs/statistics.md, "The paired design"), then moved to the target CPUs and idle together; then per scenario, and
 * per cell of a sweep, warmed in turn and measured in the same interleaved rounds ({@link PairedRounds}), the comparisons
 * drawn from their blocks.
 */
final class PairedRun implements DesignRun {
    /**
     * What a target JVM holds beside its heap (metaspace, code cache, thread stacks, Netty's direct buffers), rounded up
     * (docs/reproducibility.md, "Starting the paired design's JVMs").
     */
    private static final long NON_HEAP_BYTES = 256L << 20;
    /**
     * Starting a JVM is CPU-bound: JVMs started at once share the CPUs and each takes as much longer, so more of them at once
     * save no time and, past some, miss their readiness limit. Two per start CPU at a time keep each start well within it
     * (docs/reproducibility.md, "Starting the paired design's JVMs").
     */
    private static final int STARTS_PER_CPU = 2;

    private final Experiment experiment;
    private final Consumer<Duration> pause;
    /** When the run began, for its time budget: the design is run as soon as it is made. */
    private final long startedMs = System.currentTimeMillis();

    /**
     * @param experiment the experiment as the run starts it (a sweep's targets are its variants)
     * @param pause      how the run waits out the JVMs' idle time
     */
    PairedRun(Experiment experiment, Consumer<Duration> pause) {
        this.experiment = experiment;
        this.pause = pause;
    }

    /** Every target in every set, all resident and connected at once. */
    @Override
    public int residentJvms() {
        return experiment.targets().size() * experiment.sets();
    }

    @Override
    public void requireMemory(LaunchSettings settings) {
        long perTarget = ResourceLimits.parseMemory(settings.heap(), "--heap") + NON_HEAP_BYTES;
        long needed = perTarget * residentJvms();
        long available = new oshi.SystemInfo().getHardware().getMemory().getAvailable();
        if (needed > available) {
            throw new UsageException(String.format("--design paired keeps all %d target JVMs resident: about %d MB (heap %s + %d MB each) where %d MB are "
                            + "available; use a smaller --heap, fewer --targets, fewer --sets or --design sequential",
                    residentJvms(), needed >> 20,
                    settings.heap(), NON_HEAP_BYTES >> 20, available >> 20));
        }
    }

    @Override
    public void run(Session s) {
        List<TargetVisit> visits = new ArrayList<>();
        PairedRounds rounds = new PairedRounds(s.run(), experiment, s.results(), s.progress(), dead -> restart(s, visits, dead));
        try {
            startAll(s, visits);
            if (s.run().stop().requested()) {
                return;
            }
            // Rounds compare targets: where all but one did not start (their results say why), they would measure nothing to compare.
            List<String> started = experiment.targets().stream().map(TargetSpec::name)
                    .filter(name -> visits.stream().anyMatch(v -> v.spec().name().equals(name))).toList();
            if (started.size() < Math.min(2, experiment.targets().size())) {
                s.run().log().line("nothing to compare: " + (started.isEmpty() ? "no target" : "only " + started.get(0)) + " started; no rounds");
                return;
            }
            pause.accept(experiment.idle());
            // The cells planned ahead; a capacity ladder's are chosen as it climbs, and share what is left of the budget.
            int left = experiment.scenarios().stream().mapToInt(base -> ScenarioCell.of(experiment, base).size()).sum();
            for (Scenario base : experiment.scenarios()) {
                Iterator<ScenarioCell> cells = s.procedure().cells(experiment, base);
                boolean first = true;
                while (cells.hasNext()) {
                    if (s.run().stop().requested()) {
                        return;
                    }
                    // A sweep's later cells find the JVMs warm: they only settle at their own load, as a sequential sweep's do.
                    rounds.run(visits, cells.next(), first, deadline(Math.max(1, left--)));
                    first = false;
                }
            }
        } finally {
            visits.forEach(TargetVisit::close);
        }
    }

    /**
     * When the next scenario's (cell's) rounds should end, of {@code left} still to run: an equal share of what is left of the
     * run's time budget ({@code --time}), counted from the run's start; Long.MAX_VALUE without a budget.
     */
    private long deadline(int left) {
        if (experiment.design().budget() == null) {
            return Long.MAX_VALUE;
        }
        long now = System.currentTimeMillis();
        long end = startedMs + experiment.design().budget().toMillis();
        return now + Math.max(0, end - now) / Math.max(1, left);
    }

    /** Starts every JVM of every set, a few at a time; each one started goes into {@code visits}, to be stopped however the run ends. */
    private void startAll(Session s, List<TargetVisit> visits) {
        CpuPlan cpus = s.run().cpus();
        int cpuCount = cpus.applied() ? cpus.startCpus().size() : Runtime.getRuntime().availableProcessors();
        ExecutorService starter = Executors.newFixedThreadPool(STARTS_PER_CPU * cpuCount);
        try {
            List<CompletableFuture<TargetVisit>> starting = new ArrayList<>();
            for (int set = 1; set <= experiment.sets(); set++) {
                for (TargetSpec spec : experiment.targets()) {
                    int thisSet = set;
                    starting.add(CompletableFuture.supplyAsync(() -> start(s, spec, thisSet), starter));
                }
            }
            RuntimeException failed = null;
            for (CompletableFuture<TargetVisit> f : starting) {
                try {
                    TargetVisit v = f.join();
                    if (v != null) {
                        visits.add(v);
                    }
                } catch (CompletionException e) {
                    // The others are still collected, so that the caller stops them.
                    failed = failed != null ? failed : e.getCause() instanceof RuntimeException r ? r : e;
                }
            }
            if (failed != null) {
                throw failed;
            }
        } finally {
            starter.shutdown();
        }
    }

    /** One JVM of a set; null when the run is stopping or it did not start (then its results say why). */
    private TargetVisit start(Session s, TargetSpec spec, int set) {
        if (s.run().stop().requested()) {
            return null;
        }
        try {
            return s.starter().beside(spec, set);
        } catch (LabException e) {
            if (!s.run().stop().requested()) {
                s.run().log().line(spec.name() + ": did not start: " + e.getMessage());
                experiment.scenarios().forEach(scenario -> s.results().add(Result.failed(spec.name(), scenario.name(), e.getMessage())
                        .withSet(set, null)));
            }
            return null;
        }
    }

    /**
     * A fresh JVM of {@code old}'s target and set, started beside the others once {@code old} is stopped, in its place in
     * {@code visits} (so that it is stopped however the run ends).
     */
    private static TargetVisit restart(Session s, List<TargetVisit> visits, TargetVisit old) {
        old.close();
        TargetVisit fresh = s.starter().beside(old.spec(), old.jvm());
        visits.set(visits.indexOf(old), fresh);
        return fresh;
    }

    /** The paired comparisons of every two targets, from the blocks of all sets; a sweep maps them. */
    @Override
    public void compare(Session s) {
        ResultsFile results = s.results();
        List<String> names = experiment.targets().stream().map(TargetSpec::name).toList();
        results.comparisons(Stopping.reached(results.blocks(), names, PairedRounds.timing(s.run().driver()), results.stops()));
        results.survival(SurvivalVerdicts.of(results.blocks(), names));
        s.procedure().fromRounds(results.snapshot().results(), results.snapshot().paired().comparisons());
    }

    @Override
    public void conclude(Session s) {
        RunRecord.PairedRounds paired = s.results().snapshot().paired();
        paired.comparisons().forEach(c -> s.run().log().line("paired " + c.where() + ": " + c.sentence()));
        if (paired.survival() != null) {
            paired.survival().forEach(v -> {
                v.targets().stream().filter(t -> t.recovers() != null).forEach(t -> s.run().log().line("recovery " + v.where() + ": " + t.recovers()));
                if (v.someDied()) {
                    v.targets().forEach(t -> s.run().log().line("survival " + v.where() + ": " + t.describe()));
                    v.pairs().forEach(p -> s.run().log().line("survival " + v.where() + ": " + p.describe()));
                }
            });
        }
    }
}
