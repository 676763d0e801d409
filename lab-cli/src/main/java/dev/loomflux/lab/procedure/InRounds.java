package dev.loomflux.lab.procedure;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.Errors;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.driver.RoundsCut;
import dev.loomflux.lab.driver.WindowShare;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.DataCopy;
import dev.loomflux.lab.measure.FlowResults;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.MeasuredResult;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.profile.CategoryRules;
import dev.loomflux.lab.profile.TargetProfile;
import dev.loomflux.lab.profile.TimeWindow;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.verdict.Comparisons;
import dev.loomflux.lab.verdict.Stopping;
import dev.loomflux.lab.result.Hlog;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.result.ThreadUse;
import dev.loomflux.lab.telemetry.CpuCanary;
import dev.loomflux.lab.telemetry.ProcessProbe;
import dev.loomflux.lab.telemetry.ThreadTimes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The paired design for one scenario: every JVM of every set through its compile stage in turn, then all
 * measured in the same interleaved rounds, the first {@link Design#leadInRounds()} of them unmeasured, over
 * connections that stay open from the first block to the last, so that two sets of JVMs meet the same
 * machine. Each target of each set gets one result over its blocks, with its JVM's JFR recording and the CPU profile
 * read from it over those blocks; the blocks themselves go to results.json, where the comparisons are drawn from them.
 */
public final class InRounds {
    private final Experiment experiment;
    private final ResultsFile results;
    private final Log log;
    private final Path dir;
    private final int threads;
    private final Progress progress;
    private final LoadDriver driver;
    private final Stop stop;
    private final CpuCanary canary;
    private final Database database;
    private final CategoryRules categories;

    /** @param progress the run's progress, or null */
    public InRounds(RunContext run, Experiment experiment, ResultsFile results, Progress progress) {
        this.database = run.database();
        this.categories = run.categories();
        this.driver = run.driver();
        this.stop = run.stop();
        this.canary = run.canary();
        this.progress = progress;
        this.experiment = experiment;
        this.results = results;
        this.log = run.log();
        this.dir = run.dir();
        this.threads = run.cpus().driver().size();
    }

    /**
     * Warms every target and measures them in rounds; a target that exited or failed meanwhile is left out with a failed result.
     *
     * @param load  the block's profile and the warmup's budget; its suffix tells a sweep cell's files apart, compileFirst
     *              whether the JVMs are cold (a sweep's later cells only settle at their own load)
     * @param cell  a sweep's cell, or null
     * @param deadline when this scenario's (cell's) rounds should have ended, epoch ms, for the run's time budget; Long.MAX_VALUE for none
     */
    public void run(List<TargetVisit> visits, Scenario scenario, Measurer.Load load, Map<String, Integer> cell, long seed, long deadline) {
        long begun = System.currentTimeMillis();
        Map<String, Warmup.Outcome> warmups = new HashMap<>();
        Map<String, Long> warmupS = new HashMap<>();
        for (TargetVisit v : compileOrder(visits, TargetVisit::repeat)) {
            if (stop.requested()) {
                return;
            }
            compile(v, scenario, load, cell, warmups, warmupS);
        }
        List<TargetVisit> alive = visits.stream().filter(v -> v.alive() && warmups.containsKey(label(v))).toList();
        for (TargetVisit v : visits) {
            if (!v.alive()) {
                results.add(failed(v, scenario, cell, v.exited("before its rounds")));
            }
        }
        if (alive.isEmpty() || stop.requested()) {
            return;
        }
        try {
            // After the compile stages, which wrote too: the rounds start from the seeded rows. A target's sets share its copy.
            alive.stream().map(TargetVisit::spec).distinct().forEach(spec -> DataCopy.reset(database, spec, scenario));
        } catch (LabException e) {
            log.line(scenario.name() + ": " + e.getMessage());
            alive.forEach(v -> results.add(failed(v, scenario, cell, e.getMessage())));
            return;
        }
        Design design = experiment.design();
        int total = design.rounds() + design.leadInRounds();
        Stopping stopping = design.fixedRounds() ? null
                : new Stopping(design.rounds(), experiment.targets().stream().map(TargetSpec::name).toList(), driver.latencyStepMs());
        Rounds rounds = new Rounds(alive.stream().map(v -> new Rounds.Target(label(v), v.base())).toList(), scenario.path(),
                block(load.profile(), design), Rounds.shuffled(alive.size(), total, seed), threads, Measurer.REQUEST_TIMEOUT,
                design.leadIn(), scenario.mix());
        String base = "rounds." + scenario.name() + load.suffix();
        String yaml = driver.export(rounds, "loomflux-" + base).write(dir, base);
        log.line(BlockRecord.where(scenario.name(), cell) + ": " + (stopping == null ? "" : "up to ") + design.rounds() + " rounds of " + design.block().toMillis() / 1000.0 + " s blocks (each after "
                + design.leadIn().toSeconds() + " s of unmeasured load) after " + design.leadInRounds()
                + " lead-in rounds, every target once per round in a new random order (seed " + seed + ")"
                + (experiment.repeat() > 1 ? ", the " + experiment.repeat() + " sets of JVMs in the same rounds" : "")
                + (stopping == null ? "" : ", looked at after rounds " + stopping.planned().stream().map(String::valueOf).collect(Collectors.joining(", "))));

        Map<String, ProcessProbe> probes = new HashMap<>();
        alive.forEach(v -> probes.put(label(v), new ProcessProbe(v.pid())));
        Map<String, ProcessProbe.Snapshot> atStart = new ConcurrentHashMap<>();
        Map<String, ProcessProbe.Snapshot> atEnd = new ConcurrentHashMap<>();
        // Each JVM's counters as the rounds start: its first block's JIT time counts from here (the key of a round before the first).
        probes.forEach((label, probe) -> {
            ProcessProbe.Snapshot s = probe.read();
            if (s != null) {
                atEnd.put(label + "/-1", s);
            }
        });
        List<Block> blocks;
        String cut = null;
        try {
            Looking looking = stopping == null ? null
                    : new Looking(stopping, ended -> records(alive, scenario, cell, load.profile(), ended, atStart, atEnd), deadline);
            blocks = rounds(rounds, alive.size(), scenario, design, probes, atStart, atEnd, looking);
        } catch (RoundsCut e) {
            // The rounds before the cut are whole and counted: they are kept, the round it cut is void with the block it was in.
            blocks = wholeRounds(e.blocks(), alive.size());
            cut = "cut: " + e.getMessage().lines().findFirst().orElse("");
            log.line(BlockRecord.where(scenario.name(), cell) + ": rounds cut: " + e.getMessage());
        } catch (LabException e) {
            // "cannot connect" to one target fails the rounds of all: each gets the reason, the run goes on with the next scenario.
            log.line(scenario.name() + ": rounds failed: " + e.getMessage());
            alive.forEach(v -> results.add(failed(v, scenario, cell, "rounds failed: " + e.getMessage())));
            return;
        }
        if (stop.requested()) {
            return;
        }
        RoundsStop stopped = null;
        if (stopping != null || cut != null) {
            int measured = blocks.stream().mapToInt(Block::round).max().orElse(-1) + 1 - design.leadInRounds();
            double level = stopping == null ? Stats.ALPHA : stopping.finalLevel(Math.max(0, measured));
            String why = cut != null ? cut : stopping.why() != null ? stopping.why() : measured >= design.rounds() ? Stopping.CAP : "the run was stopped";
            stopped = new RoundsStop(scenario.name(), cell, Math.max(0, measured), design.rounds(), why, level, stopping == null ? List.of() : stopping.looks(),
                    Result.round((lastEnd(blocks) - begun) / 1000.0));
            log.line(String.format(Locale.ROOT, "%s: rounds stopped after %d of %d: %s (intervals at level %.4f, so that every look's together keep 95%%)",
                    BlockRecord.where(scenario.name(), cell), stopped.rounds(), stopped.cap(), why, level));
        }
        finish(alive, scenario, load, cell, blocks, atStart, atEnd, yaml, warmups, warmupS, stopped);
    }

    /** The blocks of the rounds every target finished: a round the cut left without some target's block cannot be compared. */
    static List<Block> wholeRounds(List<Block> blocks, int targets) {
        Map<Integer, Long> perRound = blocks.stream().collect(Collectors.groupingBy(Block::round, Collectors.counting()));
        return blocks.stream().filter(b -> perRound.get(b.round()) == targets).toList();
    }

    private static long lastEnd(List<Block> blocks) {
        return blocks.stream().mapToLong(Block::endMs).max().orElse(System.currentTimeMillis());
    }

    /**
     * The sequential rule at work during the rounds: at each look, the blocks so far as results.json would hold them, judged by
     * {@link Stopping}; once it says stop, no further round starts.
     */
    private final class Looking {
        private final Stopping stopping;
        private final Function<List<Block>, List<BlockRecord>> records;
        private final long deadline;
        private final List<Block> ended = Collections.synchronizedList(new ArrayList<>());
        private volatile int lastRound = Integer.MAX_VALUE;
        private long firstStart = -1;

        Looking(Stopping stopping, Function<List<Block>, List<BlockRecord>> records, long deadline) {
            this.stopping = stopping;
            this.records = records;
            this.deadline = deadline;
        }

        /** A block ended; after a round's last block at a look, judge the rounds so far. */
        void ended(Block b, int targets) {
            ended.add(b);
            int leadInRounds = experiment.design().leadInRounds();
            if (b.round() == leadInRounds && firstStart < 0) {
                firstStart = b.startMs();
            }
            int measured = b.round() + 1 - leadInRounds;
            if (b.position() != targets - 1 || measured <= 0 || !stopping.isLook(measured)) {
                return;
            }
            long now = System.currentTimeMillis();
            double perRound = firstStart < 0 ? 0 : (now - firstStart) / 1000.0 / measured;
            double left = deadline == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : (deadline - now) / 1000.0;
            Stopping.Look look = stopping.look(measured, records.apply(List.copyOf(ended)), perRound, left);
            if (look.stop() != null) {
                lastRound = b.round();
            }
        }

        boolean more(int round) {
            return round <= lastRound;
        }
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

    /** One JVM's compile stage; a failure leaves it out of the rounds with a failed result. */
    private void compile(TargetVisit v, Scenario scenario, Measurer.Load load, Map<String, Integer> cell, Map<String, Warmup.Outcome> warmups,
                         Map<String, Long> warmupS) {
        if (!v.alive()) {
            return;
        }
        if (progress != null) {
            progress.unitStarted();
        }
        long from = System.currentTimeMillis();
        String name = label(v);
        try {
            warmups.put(name, v.compile(scenario, load));
            warmupS.put(name, (System.currentTimeMillis() - from) / 1000);
        } catch (LabException e) {
            if (v.alive()) {
                log.line(name + " " + scenario.name() + ": failed: " + e.getMessage());
                results.add(failed(v, scenario, cell, e.getMessage()));
            }
        }
    }

    private List<Block> rounds(Rounds rounds, int targets, Scenario scenario, Design design, Map<String, ProcessProbe> probes,
                               Map<String, ProcessProbe.Snapshot> atStart, Map<String, ProcessProbe.Snapshot> atEnd, Looking looking) {
        // Read where the measured part starts, not at the lead-in's start: the lead-in's CPU over the block's responses
        // reads every block's CPU per request high (docs/reproducibility.md, "Why the default measures 1 s blocks").
        ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor();
        try {
            return driver.run(rounds, new Rounds.Listener() {
                @Override
                public void started(String target, int round) {
                    reader.schedule(() -> {
                        ProcessProbe.Snapshot s = probes.get(target).read();
                        if (s != null) {
                            atStart.put(target + "/" + round, s);
                        }
                    }, design.leadIn().toMillis(), TimeUnit.MILLISECONDS);
                }

                @Override
                public void ended(Block b) {
                    ProcessProbe.Snapshot s = probes.get(b.target()).read();
                    if (s != null) {
                        atEnd.put(b.target() + "/" + b.round(), s);
                    }
                    if (b.position() == targets - 1) {
                        log.status(b.round() < design.leadInRounds()
                                ? String.format(Locale.ROOT, "  %s lead-in round %d of %d", scenario.name(), b.round() + 1, design.leadInRounds())
                                : String.format(Locale.ROOT, "  %s round %d of %s%d", scenario.name(), b.round() + 1 - design.leadInRounds(),
                                looking == null ? "" : "up to ", design.rounds()));
                    }
                    if (looking != null) {
                        looking.ended(b, targets);
                    }
                }

                @Override
                public boolean more(int round) {
                    return looking == null || looking.more(round);
                }
            });
        } finally {
            reader.shutdownNow();
        }
    }

    /** Each target's result over its blocks, and the blocks, into results.json. */
    private void finish(List<TargetVisit> alive, Scenario scenario, Measurer.Load load, Map<String, Integer> cell, List<Block> blocks, Map<String, ProcessProbe.Snapshot> atStart,
                        Map<String, ProcessProbe.Snapshot> atEnd, String yaml, Map<String, Warmup.Outcome> warmups, Map<String, Long> warmupS, RoundsStop stopped) {
        int leadInRounds = experiment.design().leadInRounds();
        List<BlockRecord> records = records(alive, scenario, cell, load.profile(), blocks, atStart, atEnd);
        Set<String> drifting = Comparisons.drifting(records, alive.stream().map(v -> v.spec().name()).distinct().toList());
        Map<String, Map<Integer, Double>> jitShares = Comparisons.jitShares(records);
        Map<String, String> compiling = Comparisons.compiling(jitShares);
        List<Result> perTarget = new ArrayList<>();
        // Counted once per target after all rounds: its sets share its copy.
        Map<String, Optional<Result.DataRows>> dataRows = new HashMap<>();
        Map<String, Map<String, Long>> samples = new ConcurrentHashMap<>();
        // Each JVM's files and profile on a CPU of its own: six JVMs' recordings dumped and read one after another held
        // a default run 12 s after its last round.
        ExecutorService finishing = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
        try {
            List<CompletableFuture<Result>> done = new ArrayList<>();
            for (TargetVisit v : alive) {
                String name = v.spec().name();
                String label = label(v);
                List<Block> own = blocks.stream().filter(b -> b.target().equals(label) && b.round() >= leadInRounds).toList();
                List<BlockRecord> ownRecords = records.stream().filter(r -> r.target().equals(name) && r.set() == v.repeat()).toList();
                done.add(own.isEmpty() ? CompletableFuture.completedFuture(failed(v, scenario, cell, v.alive() ? "no block was measured" : v.exited("during the rounds")))
                        : CompletableFuture.supplyAsync(() -> finishOne(v, scenario, load, cell, own, ownRecords, atStart, atEnd, yaml, warmups, warmupS, drifting, jitShares,
                        samples), finishing));
            }
            for (int i = 0; i < alive.size(); i++) {
                TargetVisit v = alive.get(i);
                Result r;
                try {
                    r = done.get(i).join();
                } catch (CompletionException e) {
                    throw e.getCause() instanceof RuntimeException cause ? cause : e;
                }
                if (!r.ok()) {
                    perTarget.add(r);
                    continue;
                }
                Result.DataRows rows = dataRows.computeIfAbsent(v.spec().name(), n -> Optional.ofNullable(DataCopy.count(database, v.spec(), scenario, log))).orElse(null);
                r = rows == null ? r : r.withDataRows(rows);
                perTarget.add(cell == null ? r : r.withCell(cell));
            }
        } finally {
            finishing.shutdownNow();
        }
        // Each block with its JVM's samples per category, read in the one pass over its recording that made its profile.
        records.replaceAll(b -> {
            Map<String, Long> own = samples.get(b.target() + "/" + b.set() + "/" + b.round());
            return own == null ? b : b.withCategories(own);
        });
        results.addRounds(perTarget, records, stopped);
        if (progress != null) {
            alive.forEach(v -> progress.unitDone());
        }
        compiling.values().forEach(why -> log.line(BlockRecord.where(scenario.name(), cell) + ": " + why + ": its comparisons' intervals cover what that "
                + "may cost it (docs/statistics.md, \"A JIT still compiling in the rounds\")"));
        if (!drifting.isEmpty()) {
            log.line(BlockRecord.where(scenario.name(), cell) + ": " + String.join(", ", drifting) + " drifted across the rounds against every other target: no verdict for "
                    + (drifting.size() == 1 ? "it" : "them"));
        }
    }

    /** One JVM's result over its measured blocks, its files written and its profile read; its blocks' samples per category go to {@code samples}. */
    private Result finishOne(TargetVisit v, Scenario scenario, Measurer.Load load, Map<String, Integer> cell, List<Block> own, List<BlockRecord> ownRecords,
                             Map<String, ProcessProbe.Snapshot> atStart, Map<String, ProcessProbe.Snapshot> atEnd, String yaml, Map<String, Warmup.Outcome> warmups,
                             Map<String, Long> warmupS, Set<String> drifting, Map<String, Map<Integer, Double>> jitShares, Map<String, Map<String, Long>> samples) {
        String name = v.spec().name();
        String label = label(v);
        int leadInRounds = experiment.design().leadInRounds();
        String base = name + "." + scenario.name() + load.suffix() + (experiment.repeat() > 1 ? ".s" + v.repeat() : "");
        String hlog = base + ".hlog";
        List<Histogram> intervals = own.stream().map(b -> {
            Histogram h = b.latency().copy();
            h.setStartTimeStamp(b.startMs());
            h.setEndTimeStamp(b.endMs());
            return h;
        }).toList();
        Hlog.write(dir.resolve(hlog), name + " " + scenario.name() + " " + scenario.path() + " (blocks of interleaved rounds)", intervals);
        List<FlowResult> flows = FlowResults.of(FlowResults.overBlocks(own), dir, base, name + " " + scenario.name() + " (blocks of interleaved rounds)",
                own.get(0).startMs(), own.get(own.size() - 1).endMs());
        // Once per JVM after its rounds, its samples read over its own measured blocks.
        String jfr = base + ".jfr";
        String noJfr = v.dumpJfr(dir.resolve(jfr));
        SteadyState.JitWork jit = jitWork(atEnd.get(label + "/" + (own.get(0).round() - 1)), atEnd.get(label + "/" + own.get(own.size() - 1).round()));
        Result r = v.stamp(result(name, scenario, own, ownRecords, flows, hlog, yaml, noJfr == null ? jfr : null, warmups.get(label),
                warmupS.getOrDefault(label, 0L), drifting.contains(name), jitShares.getOrDefault(name, Map.of()).get(v.repeat()), jit));
        TargetProfile.Profiled profiled = TargetProfile.write(dir, base, v.dumpProfile(base, noJfr), own.stream().map(b -> TimeWindow.ofMillis(b.startMs(), b.endMs())).toList(),
                Metric.CPU_PER_REQUEST.read(r), categories, line -> log.line(label + " " + BlockRecord.where(scenario.name(), cell) + ": " + line));
        for (int i = 0; i < profiled.byWindow().size(); i++) {
            samples.put(name + "/" + v.repeat() + "/" + (own.get(i).round() + 1 - leadInRounds), profiled.byWindow().get(i));
        }
        return r.withProfile(profiled.profile()).withThreads(threads(label, own, atStart, atEnd));
    }

    /** The measured blocks as results.json holds them, each with its JVM's readings at its edges. */
    private List<BlockRecord> records(List<TargetVisit> alive, Scenario scenario, Map<String, Integer> cell, Profile profile, List<Block> blocks,
                                      Map<String, ProcessProbe.Snapshot> atStart, Map<String, ProcessProbe.Snapshot> atEnd) {
        Map<String, TargetVisit> byLabel = new HashMap<>();
        alive.forEach(v -> byLabel.put(label(v), v));
        int leadInRounds = experiment.design().leadInRounds();
        List<BlockRecord> records = new ArrayList<>();
        for (Block b : blocks) {
            if (b.round() >= leadInRounds) {
                String key = b.target() + "/" + b.round();
                TargetVisit v = byLabel.get(b.target());
                records.add(record(scenario, cell, users(profile), thinkMs(profile), v.spec().name(), v.repeat(), b,
                        b.round() + 1 - leadInRounds, canary == null ? null : canary.microsIn(b.startMs(), b.endMs()), atStart.get(key), atEnd.get(key),
                        atEnd.get(b.target() + "/" + (b.round() - 1))));
            }
        }
        return records;
    }

    private static Result failed(TargetVisit v, Scenario scenario, Map<String, Integer> cell, String why) {
        Result r = Result.failed(v.spec().name(), scenario.name(), why).withVisit(v.repeat(), null, null, null);
        return cell == null ? r : r.withCell(cell);
    }

    /** A target's JVM of one set, as the rounds and the log name it: "mvc", or "mvc#2" for the second set's. */
    private String label(TargetVisit v) {
        return experiment.repeat() > 1 ? v.spec().name() + "#" + v.repeat() : v.spec().name();
    }

    private static Integer users(Profile p) {
        return p instanceof Profile.Fixed f ? f.users() : null;
    }

    private static Double thinkMs(Profile p) {
        return p.think().none() ? null : p.think().meanMs();
    }

    /** One block's load: the profile's users or rate, for the block and its lead-in. */
    static Profile block(Profile p, Design d) {
        Duration length = d.block().plus(d.leadIn());
        if (p instanceof Profile.Rate r) {
            return new Profile.Rate(r.rps(), length, r.maxInFlight());
        }
        return new Profile.Fixed(p.peakUsers(), length, p.think());
    }

    /**
     * A JVM's OS threads by role over its measured blocks (each read at the block's measured start and its end), per response,
     * the busiest role first; null where the kernel keeps no schedstat. A role whose threads neither ran nor waited 0.05 µs per
     * response (the JVM's idle helpers) is left out.
     */
    private static List<ThreadUse> threads(String label, List<Block> own, Map<String, ProcessProbe.Snapshot> atStart, Map<String, ProcessProbe.Snapshot> atEnd) {
        Map<String, ThreadTimes.Role> roles = Map.of();
        long responses = 0;
        for (Block b : own) {
            ProcessProbe.Snapshot from = atStart.get(label + "/" + b.round());
            ProcessProbe.Snapshot to = atEnd.get(label + "/" + b.round());
            if (from != null && to != null) {
                roles = ThreadTimes.plus(roles, to.threads().since(from.threads()));
                responses += b.responses();
            }
        }
        if (roles.isEmpty() || responses == 0) {
            return null;
        }
        long n = responses;
        return roles.entrySet().stream()
                .map(e -> ThreadUse.of(e.getKey(), e.getValue().threads(), e.getValue().cpuNs(), e.getValue().waitNs(), e.getValue().slices(), n))
                .filter(t -> t.cpuUsPerRequest() + t.waitUsPerRequest() >= 0.05)
                .sorted(Comparator.comparingDouble(ThreadUse::cpuUsPerRequest).reversed()).toList();
    }

    /** The JIT's work from the end of a JVM's block before its measured ones to the end of its last; null without both readings. */
    private static SteadyState.JitWork jitWork(ProcessProbe.Snapshot from, ProcessProbe.Snapshot to) {
        if (from == null || to == null || from.jitMs() < 0 || to.jitMs() < 0) {
            return null;
        }
        return new SteadyState.JitWork(to.jitCompiles() - from.jitCompiles(), Result.round(to.jitMs() - from.jitMs()), null);
    }

    private static BlockRecord record(Scenario scenario, Map<String, Integer> cell, Integer users, Double think, String target, int set, Block b, int round,
                                      Double canaryUs, ProcessProbe.Snapshot from, ProcessProbe.Snapshot to, ProcessProbe.Snapshot previousEnd) {
        boolean any = b.latency().getTotalCount() > 0;
        Double mean = any ? Result.round(b.latency().getMean() / 1e6) : null;
        Double cpu = from != null && to != null && b.responses() > 0 ? Result.round((double) (to.cpuMs() - from.cpuMs()) / b.responses()) : null;
        Double gc = from != null && to != null && from.gcMs() >= 0 && to.gcMs() >= 0 ? Result.round(to.gcMs() - from.gcMs()) : null;
        Double jit = previousEnd != null && to != null && previousEnd.jitMs() >= 0 && to.jitMs() >= 0 ? Result.round(to.jitMs() - previousEnd.jitMs()) : null;
        return BlockRecord.builder().scenario(scenario.name()).cell(cell).set(set).round(round).position(b.position()).target(target)
                .users(users).thinkMs(think).seconds(Result.round(b.seconds())).requests(b.requests()).responses(b.responses())
                .errors(b.errors().total() + FlowResults.stepFailures(b.flows())).rps(Result.round(b.rps()))
                .p50(any ? Result.round(b.latency().getValueAtPercentile(50) / 1e6) : null)
                .p99(any ? Result.round(b.latency().getValueAtPercentile(99) / 1e6) : null).meanMs(mean)
                .inFlight(mean == null ? null : Result.round(b.inFlight())).cpuMsPerRequest(cpu).rssMb(to == null ? null : Result.round(to.rssMb()))
                .gcMs(gc).jitMs(jit).canaryUs(canaryUs == null ? null : Result.round(canaryUs))
                .secondsRps(b.secondsRps().stream().map(Result::round).toList()).intended(b.intended() < 0 ? null : b.intended())
                .reconnections(b.reconnections()).flows(b.flows().isEmpty() ? null : FlowResults.figures(b.flows()))
                .agents(b.agents().isEmpty() ? null : b.agents().stream().map(a -> new BlockRecord.AgentFigures(a.agent(), a.requests(), a.responses(),
                        Result.round(a.inFlight()), a.lateMs(), Result.round(a.clockOffsetMs()), Result.round(a.clockErrorMs()))).toList())
                .build();
    }

    private static Result result(String name, Scenario scenario, List<Block> own, List<BlockRecord> records, List<FlowResult> flows, String hlog, String yaml,
                                 String jfr, Warmup.Outcome warm, long warmupS, boolean drifting, Double jitPct, SteadyState.JitWork jit) {
        Histogram latency = own.get(0).latency().copy();
        long requests = 0;
        long responses = 0;
        WindowShare share = WindowShare.NONE;
        double seconds = 0;
        Errors errors = new Errors(0, 0, 0, 0, 0);
        long reconnections = 0;
        for (int i = 0; i < own.size(); i++) {
            Block b = own.get(i);
            if (i > 0) {
                latency.add(b.latency());
            }
            requests += b.requests();
            responses += b.responses();
            share = share.plus(b.share());
            seconds += b.seconds();
            errors = errors.plus(b.errors());
            reconnections += b.reconnections();
        }
        List<Result.PerSecond> series = records.stream().map(r -> new Result.PerSecond.Builder(r.round()).rps(r.load().rps()).p50(r.latency().p50()).p99(r.latency().p99())
                .errors(r.load().errors()).build().withTarget(new Result.SecondTarget(r.resources().cpuMsPerRequest() == null ? null
                        : Result.round(r.resources().cpuMsPerRequest() * r.load().rps() / 10), r.resources().rssMb(), null, null),
                        Result.SecondJit.NONE, null)).toList();
        List<String> notes = new ArrayList<>();
        double bias = jitPct == null ? 0 : Comparisons.jitBias(jitPct);
        if (bias > 0) {
            notes.add(String.format(Locale.ROOT, "its JIT compiled for %.1f%% of the rounds' time (limit %.0f%%)%s", jitPct, Comparisons.JIT_LIMIT_PCT,
                    Double.isFinite(bias) ? String.format(Locale.ROOT, ", which may slow it by up to %.0f%%: its comparisons' intervals cover that", bias * 100)
                            : ", a third or more of it"));
        }
        if (drifting) {
            notes.add("its throughput against every other target moved across the rounds (last third vs first)");
        }
        SteadyState steady = new SteadyState(warm.steady(), warm.steady() ? warm.secondsToSteady() : null, Result.round(warmupS), null,
                warm.compileSeconds(), warm.compileSeconds() > 0 ? warm.compileUsers() : null, null, jit == null ? null : new SteadyState.JitPhases(null, jit),
                new SteadyState.DriftCheck(drifting, null, null, null, null, notes.isEmpty() ? null : String.join("; ", notes)), !drifting && Double.isFinite(bias),
                List.of());
        boolean open = own.get(0).intended() >= 0;
        return MeasuredResult.ofRounds(name, scenario.name(), seconds, requests, responses, share, latency,
                errors, reconnections, flows, series, hlog, yaml, jfr, steady, open ? records.stream().anyMatch(BlockRecord::behindSchedule) : null);
    }
}
