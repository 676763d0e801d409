package dev.loomflux.lab.paired;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.driver.RoundsCut;
import dev.loomflux.lab.driver.WholeLoads;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.DataCopy;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.ResultFiles;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.procedure.ScenarioCell;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.verdict.Stopping;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * One scenario's (or sweep cell's) rounds: every JVM's compile stage in turn, then the lead-in rounds and the measured ones,
 * every JVM once per round in a new random order, then each JVM's result over its blocks ({@link CellFinish}).
 */
final class CellRounds {
    /** A JVM's compile stage: how it ended, and how long it took (s). */
    record Compiled(Warmup.Outcome outcome, long seconds) {
    }

    private final PairedRounds run;
    private final RunContext context;
    private final Experiment experiment;
    private final Design design;
    private final Log log;
    private final List<TargetVisit> visits;
    private final ScenarioCell cell;
    private final Scenario scenario;
    private final Measurer.Task task;
    private final long deadline;
    private final long begun = System.currentTimeMillis();
    /** Each JVM's compile stage, by its label; a JVM whose stage failed has none. */
    private final Map<String, Compiled> compiled = new HashMap<>();
    /** The JVMs that go into the rounds, in the order started. */
    private List<TargetVisit> alive = List.of();
    /** Their readings at the blocks' edges. */
    private JvmReadings readings;
    /** The sequential rule, null for fixed rounds. */
    private Stopping stopping;
    /** When the lead-in rounds end. */
    private LeadInRule leadIn;
    /** Rounds of whole shapes: their targets' peaks and deaths; null for blocks of fixed users or a rate. */
    private ShapeLives shapes;

    /** @param cold whether the JVMs are cold (a sweep's first cell) */
    CellRounds(PairedRounds run, List<TargetVisit> visits, ScenarioCell cell, boolean cold, long deadline) {
        this.run = run;
        this.context = run.context();
        this.experiment = run.experiment();
        this.design = experiment.design();
        this.log = context.log();
        this.visits = visits;
        this.cell = cell;
        this.scenario = cell.scenario();
        this.task = cell.task(cold);
        this.deadline = deadline;
    }

    void run() {
        for (TargetVisit v : compileOrder(visits, TargetVisit::jvm)) {
            if (context.stop().requested()) {
                return;
            }
            compile(v);
        }
        alive = new ArrayList<>(visits.stream().filter(v -> v.alive() && compiled.containsKey(run.label(v))).toList());
        for (TargetVisit v : visits) {
            if (!v.alive()) {
                run.results().add(PairedRounds.failed(v, cell, v.exited("before its rounds")));
            }
        }
        if (alive.isEmpty() || context.stop().requested()) {
            return;
        }
        try {
            // After the compile stages, which wrote too: the rounds start from the seeded rows. A target's sets share its copy.
            alive.stream().map(TargetVisit::spec).distinct().forEach(spec -> DataCopy.reset(context.database(), spec, scenario));
        } catch (LabException e) {
            log.line(scenario.name() + ": " + e.getMessage());
            alive.forEach(v -> run.results().add(PairedRounds.failed(v, cell, e.getMessage())));
            return;
        }
        measure();
    }

    /**
     * The order of the compile stages: set by set, the targets in their order in odd sets and reversed in even ones. The JVM
     * compiled first waits longest for the rounds and, in A/A runs of crud with short compile stages, was the one whose JIT still
     * compiled through them; in a fixed order that JVM was the same target's in every set and gave the other name a winner.
     * Alternated, it is a difference between sets, which the per-set rule sees (docs/statistics.md, "A JIT still compiling in the rounds").
     */
    static <T> List<T> compileOrder(List<T> visits, ToIntFunction<T> set) {
        Map<Integer, List<T>> bySet = new TreeMap<>();
        visits.forEach(v -> bySet.computeIfAbsent(set.applyAsInt(v), k -> new ArrayList<>()).add(v));
        List<T> out = new ArrayList<>();
        bySet.forEach((s, list) -> {
            if (s % 2 == 0) {
                Collections.reverse(list);
            }
            out.addAll(list);
        });
        return out;
    }

    /** One JVM's warmup (compile stage, then its load until quiet); a failure leaves it out of the rounds with a failed result. */
    private void compile(TargetVisit v) {
        if (!v.alive()) {
            return;
        }
        if (run.progress() != null) {
            run.progress().unitStarted();
        }
        long from = System.currentTimeMillis();
        String name = run.label(v);
        if (!task.compileFirst() && task.warmup().isZero()) {
            compiled.put(name, new Compiled(Warmup.Outcome.NONE, 0)); // a warm JVM at a ladder's next rung: its lead-in rounds settle it
            return;
        }
        try {
            Warmup.Outcome outcome = v.warm(scenario, task);
            compiled.put(name, new Compiled(outcome, (System.currentTimeMillis() - from) / 1000));
        } catch (LabException e) {
            if (v.alive()) {
                log.line(name + " " + scenario.name() + ": failed: " + e.getMessage());
                run.results().add(PairedRounds.failed(v, cell, e.getMessage()));
            }
        }
    }

    /** The lead-in and measured rounds, then each JVM's result. */
    private void measure() {
        LoadDriver driver = context.driver();
        int total = design.rounds() + design.leadInRounds();
        leadIn = new LeadInRule(design.leadInRounds(), LeadInRule.QUIET_ROUNDS);
        stopping = design.fixedRounds() ? null
                : new Stopping(design.rounds(), experiment.targets().stream().map(TargetSpec::name).toList(), PairedRounds.timing(driver));
        long seed = cell.seed(run.runId());
        Rounds rounds = new Rounds(alive.stream().map(v -> new Rounds.Target(run.label(v), v.base())).toList(), scenario.path(),
                block(task.profile(), design), Rounds.shuffled(alive.size(), total, seed), context.cpus().driver().size(), Measurer.REQUEST_TIMEOUT,
                design.leadIn(), scenario.mix());
        // Whole shapes run as loads of their own, each the same load against its own target: the file is one of them.
        String plan = ResultFiles.writeRoundsPlan(context.dir(), scenario.name(), task.files(),
                name -> rounds.wholeLoads() ? driver.export(rounds.spec(0), name) : driver.export(rounds, name));
        log.line(where() + ": " + (stopping == null ? "" : "up to ") + design.rounds() + " rounds of " + (rounds.wholeLoads()
                ? "blocks of the whole " + task.profile().kind() + " load (" + (task.profile().plannedDuration().isZero() ? ""
                : task.profile().plannedDuration().toMillis() / 1000.0 + " s, ") + "up to " + task.profile().peakUsers() + " users)"
                : design.block().toMillis() / 1000.0 + " s blocks (each after " + design.leadIn().toSeconds() + " s of unmeasured load)")
                + " after up to " + design.leadInRounds()
                + " lead-in rounds (until every JVM's JIT is quiet for " + LeadInRule.QUIET_ROUNDS + " in a row), every target once per round in a new random order (seed " + seed + ")"
                + (experiment.sets() > 1 ? ", the " + experiment.sets() + " sets of JVMs in the same rounds" : "")
                + (stopping == null ? "" : ", looked at after rounds " + stopping.planned().stream().map(String::valueOf).collect(Collectors.joining(", "))));

        Map<String, Long> pids = new LinkedHashMap<>();
        alive.forEach(v -> pids.put(run.label(v), v.pid()));
        readings = new JvmReadings(pids);
        readings.readAtRoundsStart();
        List<Block> blocks;
        String cut = null;
        try {
            blocks = rounds(rounds, stopping == null ? null : new Looks(stopping, this::records, leadIn::measuredFrom, deadline));
        } catch (RoundsCut e) {
            // The rounds before the cut are whole and counted: they are kept, the round it cut is void with the block it was in.
            blocks = wholeRounds(e.blocks(), alive.size());
            cut = "cut: " + e.getMessage().lines().findFirst().orElse("");
            log.line(where() + ": rounds cut: " + e.getMessage());
        } catch (LabException e) {
            // "cannot connect" to one target fails the rounds of all: each gets the reason, the run goes on with the next scenario.
            log.line(scenario.name() + ": rounds failed: " + e.getMessage());
            alive.forEach(v -> run.results().add(PairedRounds.failed(v, cell, "rounds failed: " + e.getMessage())));
            return;
        }
        if (context.stop().requested()) {
            return;
        }
        new CellFinish(this, blocks, plan, stopped(blocks, cut)).finish();
    }

    /** Where the rounds stopped and why, for a sequential rule or a cut; null for fixed rounds that ran to the end. */
    private RoundsStop stopped(List<Block> blocks, String cut) {
        if (stopping == null && cut == null) {
            return null;
        }
        int measured = leadIn.leading() ? 0 : blocks.stream().mapToInt(Block::round).max().orElse(-1) + 1 - leadIn.measuredFrom();
        double level = stopping == null ? Stats.ALPHA : stopping.finalLevel(Math.max(0, measured));
        String why = cut != null ? cut : stopping.why() != null ? stopping.why() : measured >= design.rounds() ? Stopping.CAP : "the run was stopped";
        RoundsStop stopped = new RoundsStop(scenario.name(), cell.cell(), Math.max(0, measured), design.rounds(), why, level,
                stopping == null ? List.of() : stopping.looks(), Result.round((lastEnd(blocks) - begun) / 1000.0));
        log.line(String.format(Locale.ROOT, "%s: rounds stopped after %d of %d: %s (intervals at level %.4f, so that every look's together keep 95%%)",
                where(), stopped.rounds(), stopped.cap(), why, level));
        return stopped;
    }

    /** The blocks of the rounds every target finished: a round the cut left without some target's block cannot be compared. */
    static List<Block> wholeRounds(List<Block> blocks, int targets) {
        Map<Integer, Long> perRound = blocks.stream().collect(Collectors.groupingBy(Block::round, Collectors.counting()));
        return blocks.stream().filter(b -> perRound.get(b.round()) == targets).toList();
    }

    private static long lastEnd(List<Block> blocks) {
        return blocks.stream().mapToLong(Block::endMs).max().orElse(System.currentTimeMillis());
    }

    /** @param looks the sequential rule at its looks, or null for fixed rounds */
    private List<Block> rounds(Rounds rounds, Looks looks) {
        int targets = alive.size();
        // Read where the measured part starts, not at the lead-in's start: the lead-in's CPU over the block's responses
        // reads every block's CPU per request high (docs/reproducibility.md, "Why the default measures 1 s blocks").
        ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor();
        shapes = rounds.wholeLoads() ? new ShapeLives(this) : null;
        try {
            Rounds.Listener listener = new Rounds.Listener() {
                @Override
                public void started(String target, int round) {
                    reader.schedule(() -> readings.start(target, round), design.leadIn().toMillis(), TimeUnit.MILLISECONDS);
                }

                @Override
                public void ended(Block b) {
                    if (shapes != null) {
                        shapes.ended(b);
                    }
                    readings.end(b.target(), b.round());
                    boolean leading = leadIn.leading();
                    if (leading && (shapes == null || shapes.settled(b))) {
                        JvmReadings.Edges e = readings.edges(b.target(), b.round());
                        leadIn.block(b.round(), b.target(), BlockRecord.Resources.compilerPct(e.compilerMs(), e.othersCompilerMs(), b.seconds()),
                                BlockRecord.Resources.compilerPct(e.compilerMs(), e.compilerMs() == null ? null : 0.0, b.seconds()));
                    }
                    if (b.position() == targets - 1) {
                        if (leading) {
                            leadIn.roundEnded(b.round());
                            log.status(String.format(Locale.ROOT, "  %s lead-in round %d of up to %d", scenario.name(), b.round() + 1, design.leadInRounds()));
                            if (!leadIn.leading()) {
                                log.line(where() + ": lead-in ended after " + leadIn.measuredFrom() + " rounds: " + leadIn.why());
                            }
                        } else {
                            log.status(String.format(Locale.ROOT, "  %s round %d of %s%d", scenario.name(), b.round() + 1 - leadIn.measuredFrom(),
                                    looks == null ? "" : "up to ", design.rounds()));
                        }
                    }
                    if (looks != null) {
                        looks.ended(b, targets);
                    }
                }

                @Override
                public boolean more(int round) {
                    int from = leadIn.measuredFrom();
                    return from < 0 ? round < design.leadInRounds() : round < from + design.rounds() && (looks == null || looks.more(round));
                }
            };
            return shapes != null ? WholeLoads.run(context.driver(), rounds, listener, shapes) : context.driver().run(rounds, listener);
        } finally {
            reader.shutdownNow();
            if (shapes != null) {
                shapes.close();
            }
        }
    }

    /** The measured blocks as results.json holds them, each with its JVM's readings at its edges. */
    List<BlockRecord> records(List<Block> blocks) {
        Map<String, TargetVisit> byLabel = new HashMap<>();
        alive.forEach(v -> byLabel.put(run.label(v), v));
        BlockFigures figures = new BlockFigures(scenario.name(), cell.cell(), task.profile());
        int leadInRounds = leadIn.measuredFrom();
        List<BlockRecord> records = new ArrayList<>();
        for (Block b : blocks) {
            if (leadInRounds >= 0 && b.round() >= leadInRounds) {
                TargetVisit v = byLabel.get(b.target());
                Double canaryUs = context.canary() == null ? null : context.canary().microsIn(b.startMs(), b.endMs());
                records.add(figures.of(b, b.round() + 1 - leadInRounds, v.spec().name(), v.jvm(), canaryUs, readings.edges(b.target(), b.round()))
                        .withShape(shapes == null ? null : shapes.shape(b.target(), b.round())));
            }
        }
        return records;
    }

    /** How the block's target died in it; null when it lived through it, or the block was not a whole shape's. */
    BlockRecord.Death death(Block b) {
        BlockRecord.Shape shape = shapes == null ? null : shapes.shape(b.target(), b.round());
        return shape == null ? null : shape.died();
    }

    /** A JVM in the rounds, by its label. */
    TargetVisit visit(String label) {
        return alive.stream().filter(v -> run.label(v).equals(label)).findFirst().orElseThrow();
    }

    /** Whether every block of a shape after a target's first runs on a fresh JVM of it, as asked (--fresh-jvms). */
    boolean freshJvms() {
        return experiment.freshJvms();
    }

    /**
     * A fresh JVM in place of {@code old}, one that died in a shape or that ran a block with fresh JVMs asked for, before its next
     * block of {@code round}: started beside the others, warmed as they were when the task warms, read from its start. The
     * others' blocks in between had the machine to themselves.
     */
    TargetVisit revive(TargetVisit old, int round) {
        String label = run.label(old);
        log.line(where() + ": " + label + (old.alive() ? " stopped, as --fresh-jvms asks" : " died (" + old.exitDescription() + ")")
                + ": a fresh JVM for its block of " + (leadIn.leading() ? "lead-in round " + (round + 1) : "round " + (round + 1 - leadIn.measuredFrom())));
        TargetVisit fresh = run.restart(old);
        alive.set(alive.indexOf(old), fresh);
        if (task.compileFirst() || !task.warmup().isZero()) {
            fresh.warm(scenario, task);
        }
        readings.revived(label, fresh.pid(), round);
        return fresh;
    }

    /** One block's load: the profile's users or rate, for the block and its lead-in; a shape whole. */
    static LoadProfile block(LoadProfile p, Design d) {
        if (!Experiment.measuredInRounds(p)) {
            return p;
        }
        Duration length = d.block().plus(d.leadIn());
        if (p instanceof LoadProfile.Rate r) {
            return new LoadProfile.Rate(r.rps(), length, r.maxInFlight());
        }
        return new LoadProfile.Fixed(p.peakUsers(), length, p.think());
    }

    /** "json" or "json users=64": where in the run, as the log names it. */
    String where() {
        return BlockRecord.where(scenario.name(), cell.cell());
    }

    PairedRounds paired() {
        return run;
    }

    ScenarioCell cell() {
        return cell;
    }

    Measurer.Task task() {
        return task;
    }

    List<TargetVisit> alive() {
        return alive;
    }

    JvmReadings readings() {
        return readings;
    }

    /** The first measured round (from 0); -1 when the rounds ended in the lead-in. */
    int measuredFrom() {
        return leadIn.measuredFrom();
    }

    /** How the lead-in went, for results.json. */
    dev.loomflux.lab.result.LeadIn leadInRecord() {
        return leadIn.record(scenario.name(), cell.cell());
    }

    /** The JVM's compile stage, by its label. */
    Compiled compiled(String label) {
        return compiled.get(label);
    }
}
