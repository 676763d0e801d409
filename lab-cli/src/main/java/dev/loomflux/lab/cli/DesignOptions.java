package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.stats.Paired;
import java.time.Duration;
import picocli.CommandLine.Option;

/** How the targets are measured against each other, and how many JVMs of each: sets in the paired design, repeats in the sequential one. */
public final class DesignOptions {
    @Option(names = "--design", paramLabel = "KIND",
            description = "paired (the default): start every target, warm each, then measure all in interleaved rounds and judge per-round ratios;"
                    + " sequential: one target after another, one window each. Without this flag or the file's design, a run the paired"
                    + " design cannot measure (a profile other than fixed and rate, a driver without the rounds it needs) is sequential, and says so.")
    String design;

    @Option(names = "--sets", paramLabel = "N",
            description = "Paired: N sets of JVMs measured in the same rounds, a winner only where every set shows it."
                    + " Default: the file's sets, else " + Design.DEFAULT_SETS + " (1 in a sweep).")
    Integer sets;

    @Option(names = "--repeat", paramLabel = "N",
            description = "Sequential: every target x scenario N times, interleaved and mirrored (A B C C B A ...), each in a fresh JVM;"
                    + " verdicts need N >= 3. Default: the file's repeat, else 1.")
    Integer repeat;

    @Option(names = "--rounds", paramLabel = "N", description = "The most measured rounds of the paired design: the rounds stop at a look"
            + " once every comparison has its answer, or none can reach one by N. Default: " + Design.DEFAULT_ROUNDS + ".")
    Integer rounds;

    @Option(names = "--fixed-rounds", description = "Paired: take all --rounds, with no look before the last (the design before sequential stopping).")
    boolean fixedRounds;

    @Option(names = "--time", paramLabel = "TIME", description = "Paired: the whole run's wall-clock budget, e.g. 5m; the rounds stop at the last look"
            + " that fits in it. Default: none.")
    String time;

    @Option(names = "--block", paramLabel = "TIME", description = "One target's block in a round (paired). Default: 1s.")
    String block;

    @Option(names = "--lead-in", paramLabel = "TIME", description = "Unmeasured load at the start of every block (paired), whole seconds. Default: 0s.")
    String leadIn;

    @Option(names = "--lead-in-rounds", paramLabel = "N", description = "The most unmeasured rounds before the measured ones (paired); they end once every JIT is quiet. Default: " + Design.LEAD_IN + ".")
    Integer leadInRounds;

    /**
     * The file's design (or, without a file, the default) with what the flags change in it: named when --design or the file
     * names it, else the default, which {@link Experiment#decided} turns sequential where the paired design cannot measure.
     */
    Design design(Design fromFile) {
        if (design != null && !design.equals("paired") && !design.equals("sequential")) {
            throw new UsageException("--design " + design + ": expected paired or sequential");
        }
        if (design != null ? design.equals("sequential") : !fromFile.paired()) {
            if (rounds != null || block != null || leadIn != null || leadInRounds != null || fixedRounds || time != null) {
                throw new UsageException((rounds != null ? "--rounds" : block != null ? "--block" : leadIn != null ? "--lead-in"
                        : leadInRounds != null ? "--lead-in-rounds" : fixedRounds ? "--fixed-rounds" : "--time") + " applies to --design paired only");
            }
            return Design.SEQUENTIAL;
        }
        int n = rounds != null ? rounds : fromFile.paired() ? fromFile.rounds() : Design.DEFAULT_ROUNDS;
        if (n < Paired.MIN_ROUNDS || n > Design.MAX_ROUNDS) {
            throw new UsageException("--rounds " + n + ": expected " + Paired.MIN_ROUNDS + ".." + Design.MAX_ROUNDS
                    + " (fewer than " + Paired.MIN_ROUNDS + " rounds cannot give a 95% interval)");
        }
        Duration b = block != null ? Flags.duration("--block", block, false) : fromFile.paired() ? fromFile.block() : Design.DEFAULT_BLOCK;
        if (b.toMillis() < 1000) {
            throw new UsageException("--block " + block + ": a block must last at least 1s");
        }
        Duration l = leadIn != null ? Flags.duration("--lead-in", leadIn, true) : fromFile.paired() ? fromFile.leadIn() : Design.DEFAULT_LEAD_IN;
        String wrong = Design.leadInProblem(l);
        if (wrong != null) {
            throw new UsageException("--lead-in " + leadIn + ": " + wrong);
        }
        int warm = leadInRounds != null ? leadInRounds : fromFile.paired() ? fromFile.leadInRounds() : Design.LEAD_IN;
        if (warm < 0 || warm > Design.MAX_LEAD_IN_ROUNDS) {
            throw new UsageException("--lead-in-rounds " + warm + ": expected 0.." + Design.MAX_LEAD_IN_ROUNDS);
        }
        Duration budget = time != null ? Flags.duration("--time", time, false) : fromFile.budget();
        Design paired = Design.paired(n, b, l, warm).stopping(fixedRounds || fromFile.paired() && fromFile.fixedRounds(), budget);
        return design != null || fromFile.named() ? paired : paired.byDefault();
    }

    /**
     * The experiment with as many JVMs of each target as the flags ask: --sets when it is measured in rounds,
     * --repeat when one target after another; without either, the file's, or for a paired run from flags
     * alone (not a sweep) {@link Design#DEFAULT_SETS}.
     *
     * @param e the experiment in the design that measures it ({@link Experiment#decided})
     */
    Experiment jvms(Experiment e, boolean flagsOnly) {
        if (e.inRounds() && repeat != null) {
            throw new UsageException("--repeat " + repeat + ": the paired design measures sets of JVMs in the same rounds; use --sets " + repeat);
        }
        if (!e.inRounds() && sets != null) {
            throw new UsageException("--sets " + sets + ": sets are the paired design's; this run measures one target after another"
                    + " (--design sequential, or a profile other than fixed and rate): use --repeat " + sets);
        }
        if (sets != null) {
            return e.toBuilder().sets(Flags.count("--sets", sets)).build();
        }
        if (repeat != null) {
            return e.toBuilder().repeats(Flags.count("--repeat", repeat)).build();
        }
        return flagsOnly && e.inRounds() && e.sweep() == null ? e.toBuilder().sets(Design.DEFAULT_SETS).build() : e;
    }
}
