package dev.loomflux.lab.verdict;

import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.result.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Replays stored paired runs of fixed rounds through the sequential rule ({@link Stopping}), look by look, as the paired design's rounds (paired/Looks) would
 * have taken them: where the rounds would have stopped and why, and per comparison the fixed design's outcome (every round
 * of the run, 5%) against the sequential one and the look it was reached from; then, per cap, how many of the fixed design's
 * outcomes the sequential one reached, and how many a fixed design of as many rounds as the cap reaches (docs/statistics.md,
 * "Stopping when the answer is known"). Run by bench/replay-stopping.sh.
 *
 * <p>Arguments: {@code [--caps 45,30,25,20,15] [--quiet] PATH...}, each PATH a results.json, a run's directory, or a
 * directory of runs' directories. A cap above a run's rounds is skipped for that run. A run that stopped by the sequential
 * rule (it has {@code stops}) is skipped: it has no rounds past its stop to compare with.
 */
public final class ReplayStopping {
    private ReplayStopping() {
    }

    /** Per cap, the counts over every replayed scenario. */
    static final class Summary {
        int scenarios;
        long stopRounds;
        int comparisons;
        int fixedOutcomes;
        int reached;
        int other;
        int missed;
        int extra;
        int fixedAtCap;
        long reachedAtSum;
        final Map<String, Integer> why = new TreeMap<>();
        final List<String> missedOnes = new ArrayList<>();
    }

    public static void main(String[] args) throws IOException {
        List<Integer> caps = List.of(45, 30, 25, 20, 15);
        boolean quiet = false;
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--caps")) {
                caps = Stream.of(args[++i].split(",")).map(String::trim).map(Integer::parseInt).toList();
            } else if (args[i].equals("--quiet")) {
                quiet = true;
            } else {
                files.addAll(resultsFiles(Path.of(args[i])));
            }
        }
        if (files.isEmpty()) {
            System.err.println("usage: ReplayStopping [--caps 45,30,25,20,15] [--quiet] RESULTS_JSON_OR_DIR...");
            System.exit(2);
        }
        Map<Integer, Summary> summaries = new LinkedHashMap<>();
        caps.forEach(c -> summaries.put(c, new Summary()));
        for (Path file : files) {
            replay(file, caps, summaries, quiet);
        }
        System.out.println();
        System.out.println("Summary: the sequential design at each cap against the fixed design over every round of the run (5%)");
        System.out.println("| cap | scenarios | mean stop round | fixed outcomes | reached | reached otherwise | not reached | outcomes the fixed design lacks "
                + "| mean round reached | fixed design of cap rounds reaches | stops |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        summaries.forEach((cap, s) -> System.out.printf(Locale.ROOT, "| %d | %d | %.1f | %d | %d | %d | %d | %d | %.1f | %d | %s |%n", cap, s.scenarios,
                s.scenarios == 0 ? 0 : s.stopRounds / (double) s.scenarios, s.fixedOutcomes, s.reached, s.other, s.missed, s.extra,
                s.reached == 0 ? 0 : s.reachedAtSum / (double) s.reached, s.fixedAtCap, s.why));
        summaries.forEach((cap, s) -> s.missedOnes.forEach(m -> System.out.printf("cap %d, not reached: %s%n", cap, m)));
    }

    /** The results.json files under a path: itself, its directory's, or each run directory's in it, by name. */
    static List<Path> resultsFiles(Path p) throws IOException {
        if (Files.isRegularFile(p)) {
            return List.of(p);
        }
        if (Files.isRegularFile(p.resolve("results.json"))) {
            return List.of(p.resolve("results.json"));
        }
        try (Stream<Path> dirs = Files.list(p)) {
            return dirs.map(d -> d.resolve("results.json")).filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static void replay(Path file, List<Integer> caps, Map<Integer, Summary> summaries, boolean quiet) throws IOException {
        RunRecord run = RunRecord.read(file);
        ExperimentDescription e = run.experiment();
        if (run.paired().blocks() == null || run.paired().blocks().isEmpty() || e == null || e.design() == null || !"paired".equals(e.design().kind())) {
            System.out.println(file + ": no paired rounds, skipped");
            return;
        }
        if (run.paired().stops() != null && !run.paired().stops().isEmpty()) {
            System.out.println(file + ": its rounds stopped by the sequential rule, skipped");
            return;
        }
        List<String> targets = e.targets().stream().map(ExperimentDescription.TargetDescription::name).toList();
        DriverType driver = Drivers.ALL.find(e.driver());
        double step = driver == null ? 0 : driver.latencyStepMs();
        Timing timing = new Timing(step, Drivers.ALL.finerThan(step));
        Map<String, List<BlockRecord>> byWhere = new LinkedHashMap<>();
        run.paired().blocks().forEach(b -> byWhere.computeIfAbsent(b.where(), k -> new ArrayList<>()).add(b));
        for (Map.Entry<String, List<BlockRecord>> w : byWhere.entrySet()) {
            List<BlockRecord> blocks = w.getValue();
            int rounds = blocks.stream().mapToInt(BlockRecord::round).max().orElse(0);
            long sets = blocks.stream().map(BlockRecord::set).distinct().count();
            System.out.printf(Locale.ROOT, "%n%s %s: %s, %d sets, %d rounds%n", run.header().runId(), w.getKey(), String.join(" ", targets), sets, rounds);
            List<PairComparison> fixed = Comparisons.of(blocks, targets, timing);
            for (int cap : caps) {
                if (cap > rounds) {
                    System.out.printf("  cap %d: more than the run's %d rounds, skipped%n", cap, rounds);
                    continue;
                }
                Summary s = summaries.get(cap);
                Stopping stopping = new Stopping(cap, targets, timing);
                int stopped = cap;
                String why = Stopping.CAP;
                for (int look : stopping.planned()) {
                    Stopping.Seen l = stopping.look(look, upTo(blocks, look), 0, Double.POSITIVE_INFINITY);
                    if (l.stop() != null) {
                        stopped = look;
                        why = l.stop();
                        break;
                    }
                }
                BlockRecord first = blocks.get(0);
                RoundsStop stop = new RoundsStop(first.scenario(), first.cell(), stopped, cap, why, stopping.finalLevel(stopped), stopping.looks(), 0);
                List<PairComparison> sequential = Stopping.reached(upTo(blocks, stopped), targets, timing, List.of(stop));
                Map<String, PairComparison> byKey = new LinkedHashMap<>();
                sequential.forEach(c -> byKey.put(c.key(), c));
                // The fixed design of as many rounds as the cap: what fewer rounds alone cost, without the looks.
                Map<String, String> atCap = new LinkedHashMap<>();
                Comparisons.of(upTo(blocks, cap), targets, timing).forEach(c -> atCap.put(c.key(), c.outcome()));
                s.scenarios++;
                s.stopRounds += stopped;
                s.why.merge(why, 1, Integer::sum);
                if (!quiet) {
                    System.out.printf(Locale.ROOT, "  cap %d: stopped after %d rounds, %s (level %.4f)%n", cap, stopped, why, stop.level());
                }
                for (PairComparison f : fixed) {
                    PairComparison q = byKey.get(f.key());
                    String fo = f.outcome();
                    String qo = q == null ? PairComparison.UNDECIDED : q.outcome();
                    s.comparisons++;
                    boolean fixedHas = !fo.equals(PairComparison.UNDECIDED);
                    boolean seqHas = !qo.equals(PairComparison.UNDECIDED);
                    if (fixedHas) {
                        s.fixedOutcomes++;
                        s.fixedAtCap += fo.equals(atCap.get(f.key())) ? 1 : 0;
                        if (qo.equals(fo)) {
                            s.reached++;
                            s.reachedAtSum += q.look().reachedAt() == null ? stopped : q.look().reachedAt();
                        } else if (seqHas) {
                            s.other++;
                            s.missedOnes.add(run.header().runId() + " " + describe(f) + ": fixed " + fo + ", sequential " + qo);
                        } else {
                            s.missed++;
                            s.missedOnes.add(run.header().runId() + " " + describe(f) + ": fixed " + fo + " " + ci(f) + ", sequential undecided " + ci(q)
                                    + " after " + stopped);
                        }
                    } else if (seqHas) {
                        s.extra++;
                    }
                    if (!quiet) {
                        System.out.printf(Locale.ROOT, "    %-38s fixed(%d) %-10s %s | sequential %-10s %s%s%n", describe(f), rounds, fo, ci(f), qo, ci(q),
                                q != null && q.look().reachedAt() != null ? ", reached at round " + q.look().reachedAt() : "");
                    }
                }
            }
        }
    }

    private static List<BlockRecord> upTo(List<BlockRecord> blocks, int rounds) {
        return blocks.stream().filter(b -> b.round() <= rounds).toList();
    }

    private static String describe(PairComparison c) {
        return c.where() + " " + c.metric() + " " + c.a() + "/" + c.b();
    }

    private static String ci(PairComparison c) {
        if (c == null || c.estimate().ratio() == null || c.estimate().ci().size() != 2) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.3f [%.3f-%.3f]", c.estimate().ratio(), c.estimate().ci().get(0), c.estimate().ci().get(1));
    }
}
