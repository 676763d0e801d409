package dev.loomflux.lab.paired;

import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.measure.DataCopy;
import dev.loomflux.lab.measure.FlowResults;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.MeasuredResult;
import dev.loomflux.lab.measure.ResultFiles;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.measure.SteadyStateReport;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.procedure.ScenarioCell;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.cpuprofile.TargetProfile;
import dev.loomflux.lab.cpuprofile.TimeWindow;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.verdict.Comparisons;
import dev.loomflux.lab.verdict.QuietBlocks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.HdrHistogram.Histogram;

/**
 * The end of one scenario's (cell's) rounds: each JVM's result over its measured blocks, its files written and its profile
 * read, and the blocks, into results.json.
 */
final class CellFinish {
    private final CellRounds rounds;
    private final PairedRounds run;
    private final RunContext context;
    private final ScenarioCell cell;
    private final List<Block> blocks;
    private final String plan;
    private final RoundsStop stopped;
    private final int leadInRounds;
    /** The measured blocks as results.json holds them. */
    private final List<BlockRecord> records;
    /** The targets that drifted across the rounds against every other. */
    private final Set<String> drifting;
    /** Per target and set, the share of the rounds' time its JVM's JIT compiled for (%). */
    private final Map<String, Map<Integer, Double>> jitShares;
    /** Each measured block's CPU samples per category, by target, set and round ("mvc/2/7"). */
    private final Map<String, Map<String, Long>> samples = new ConcurrentHashMap<>();

    /**
     * @param plan    the rounds' plan file
     * @param stopped where the rounds stopped and why; null for fixed rounds that ran to the end
     */
    CellFinish(CellRounds rounds, List<Block> blocks, String plan, RoundsStop stopped) {
        this.rounds = rounds;
        this.run = rounds.paired();
        this.context = run.context();
        this.cell = rounds.cell();
        this.blocks = blocks;
        this.plan = plan;
        this.stopped = stopped;
        this.leadInRounds = rounds.measuredFrom();
        this.records = new ArrayList<>(rounds.records(blocks));
        this.drifting = Comparisons.drifting(records, rounds.alive().stream().map(v -> v.spec().name()).distinct().toList());
        this.jitShares = Comparisons.jitShares(records);
    }

    /** Each target's result over its blocks, and the blocks, into results.json. */
    void finish() {
        List<TargetVisit> alive = rounds.alive();
        Log log = context.log();
        Map<String, String> compiling = Comparisons.compiling(jitShares);
        List<Result> perTarget = new ArrayList<>();
        // Counted once per target after all rounds: its sets share its copy.
        Map<String, Optional<Result.DataRows>> dataRows = new HashMap<>();
        Database database = context.database();
        // Each JVM's files and profile on a CPU of its own: six JVMs' recordings dumped and read one after another held
        // a default run 12 s after its last round.
        ExecutorService finishing = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
        try {
            List<CompletableFuture<Result>> done = new ArrayList<>();
            for (TargetVisit v : alive) {
                String label = run.label(v);
                List<Block> measured = blocks.stream().filter(b -> b.target().equals(label) && leadInRounds >= 0 && b.round() >= leadInRounds).toList();
                // A block its target died in is survival's (results.json "survival"), not part of its figures.
                List<Block> own = measured.stream().filter(b -> rounds.death(b) == null).toList();
                done.add(own.isEmpty() ? CompletableFuture.completedFuture(PairedRounds.failed(v, cell, !measured.isEmpty()
                        ? "died in all " + measured.size() + " of its rounds: " + rounds.death(measured.get(0)).cause()
                        : v.alive() ? "no block was measured" : v.exited("during the rounds")))
                        : CompletableFuture.supplyAsync(() -> finishOne(v, own), finishing));
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
                Result.DataRows rows = dataRows.computeIfAbsent(v.spec().name(), n -> Optional.ofNullable(DataCopy.count(database, v.spec(), cell.scenario(), log)))
                        .orElse(null);
                r = rows == null ? r : r.withDataRows(rows);
                perTarget.add(cell.cell() == null ? r : r.withCell(cell.cell()));
            }
        } finally {
            finishing.shutdownNow();
        }
        // Each block with its JVM's samples per category, read in the one pass over its recording that made its profile.
        records.replaceAll(b -> {
            Map<String, Long> own = samples.get(b.target() + "/" + b.set() + "/" + b.round());
            return own == null ? b : b.withCategories(own);
        });
        run.results().addRounds(perTarget, records, stopped, rounds.leadInRecord());
        if (run.progress() != null) {
            alive.forEach(v -> run.progress().unitDone());
        }
        compiling.values().forEach(why -> log.line(rounds.where() + ": " + why + ": its comparisons leave out the rounds in which it compiled "
                + "past " + (int) Comparisons.COMPILER_LIMIT_PCT + "% of a CPU (docs/statistics.md, \"A JIT still compiling in the rounds\")"));
        if (!drifting.isEmpty()) {
            log.line(rounds.where() + ": " + String.join(", ", drifting) + " drifted across the rounds against every other target: no verdict for "
                    + (drifting.size() == 1 ? "it" : "them"));
        }
    }

    /** One JVM's result over its measured blocks, its files written and its profile read; its blocks' samples per category go to {@link #samples}. */
    private Result finishOne(TargetVisit v, List<Block> own) {
        String name = v.spec().name();
        String label = run.label(v);
        String scenario = cell.scenario().name();
        ResultFiles files = ResultFiles.of(context.dir(), name, scenario, rounds.task().files().set(v.jvm(), run.experiment().sets()),
                own.stream().map(b -> TimeWindow.ofMillis(b.startMs(), b.endMs())).toList());
        List<Histogram> intervals = own.stream().map(b -> {
            Histogram h = b.latency().copy();
            h.setStartTimeStamp(b.startMs());
            h.setEndTimeStamp(b.endMs());
            return h;
        }).toList();
        String hlog = files.hlog(name + " " + scenario + " " + cell.scenario().path() + " (blocks of interleaved rounds)", intervals);
        List<FlowResult> flows = files.flows(FlowResults.overBlocks(own), name + " " + scenario + " (blocks of interleaved rounds)");
        // Once per JVM after its rounds, its samples read over its own measured blocks.
        String noJfr = files.dumpJfr(v::dumpJfr);
        List<BlockRecord> ownRecords = records.stream().filter(r -> r.target().equals(name) && r.set() == v.jvm() && !r.died()).toList();
        boolean open = own.get(0).intended() >= 0;
        Result.WindowLoad load = MeasuredResult.overBlocks(own, flows, open ? ownRecords.stream().anyMatch(BlockRecord::behindSchedule) : null);
        Result r = v.stamp(MeasuredResult.ofRounds(name, scenario, load, series(ownRecords), new Result.Files(hlog, plan, null, noJfr == null ? files.jfr() : null),
                steadyState(v, own)));
        TargetProfile.Profiled profiled = files.profile(v.dumpProfile(files.stem(), noJfr), Metric.CPU_PER_REQUEST.read(r), context.categories(),
                line -> context.log().line(label + " " + rounds.where() + ": " + line));
        for (int i = 0; i < profiled.byWindow().size(); i++) {
            samples.put(name + "/" + v.jvm() + "/" + (own.get(i).round() + 1 - leadInRounds), profiled.byWindow().get(i));
        }
        return r.withProfile(profiled.profile()).withThreads(rounds.readings().threads(label, own));
    }

    /** One row per block: t = its round, rps its throughput, cpu_pct its CPU over the block. */
    private static List<Result.PerSecond> series(List<BlockRecord> records) {
        return records.stream().map(r -> new Result.PerSecond.Builder(r.round()).rps(r.load().rps()).p50(r.latency().p50()).p99(r.latency().p99())
                .errors(r.load().errors()).build().withTarget(new Result.SecondTarget(r.resources().cpuMsPerRequest() == null ? null
                        : Result.round(r.resources().cpuMsPerRequest() * r.load().rps() / 10), r.resources().rssMb(), null, null),
                        Result.SecondJit.NONE, null)).toList();
    }

    /** A JVM's compile stage and the JIT's work through its blocks; whether its JIT still compiled or it drifted. */
    private SteadyState steadyState(TargetVisit v, List<Block> own) {
        String name = v.spec().name();
        CellRounds.Compiled compiled = rounds.compiled(run.label(v));
        Warmup.Outcome warm = compiled.outcome();
        SteadyState.JitWork jit = rounds.readings().jitWork(run.label(v), own);
        Double jitPct = jitShares.getOrDefault(name, Map.of()).get(v.jvm());
        boolean drifts = drifting.contains(name);
        List<String> notes = new ArrayList<>();
        boolean quiet = Comparisons.jitQuiet(jitPct);
        if (!quiet) {
            notes.add(String.format(Locale.ROOT, "its JIT compiled for %.1f%% of the rounds' time (limit %.0f%%)", jitPct, Comparisons.JIT_LIMIT_PCT));
        }
        int loud = QuietBlocks.loudRounds(records, name, v.jvm());
        if (loud > 0) {
            notes.add(String.format(Locale.ROOT, "its JIT compiler threads passed %.0f%% of a CPU over its blocks in %d round(s): those pairs of blocks are "
                    + "left out of its comparisons", Comparisons.COMPILER_LIMIT_PCT, loud));
        }
        if (drifts) {
            notes.add("its throughput against every other target moved across the rounds (last third vs first)");
        }
        return new SteadyState(warm.steady(), warm.steady() ? warm.secondsToSteady() : null, Result.round(compiled.seconds()), null,
                warm.compileSeconds(), warm.compileSeconds() > 0 ? warm.compileUsers() : null, SteadyStateReport.rule(warm),
                jit == null ? null : new SteadyState.JitPhases(null, jit),
                new SteadyState.DriftCheck(drifts, null, null, null, null, notes.isEmpty() ? null : String.join("; ", notes)), !drifts && quiet,
                SteadyStateReport.series(warm));
    }
}
