package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which measured blocks the comparisons keep: those whose window had the target JVMs' compiler threads (the block's own
 * JVM's and every other's, on the target's shared CPUs) at most {@link Comparisons#COMPILER_LIMIT_PCT} of one CPU. A JIT
 * compiling in a block slows that block, and one JVM's compiling slows another's block beside it; rounds do not average
 * that out when it lasts through them. So such a block is left out and cannot pair with its round's other blocks, in
 * place of widening every interval of a JVM that compiled past a share of the rounds (docs/statistics.md, "A JIT still
 * compiling in the rounds"). A block without the figures (an older file, a JVM /proc cannot read) counts as quiet.
 */
public final class QuietBlocks {
    private QuietBlocks() {
    }

    /** Whether the target JVMs' compiler threads took more than the limit of one CPU over the block's window. */
    static boolean loud(BlockRecord b) {
        Double pct = b.resources().compilerPct(b.load().seconds());
        return pct != null && pct > Comparisons.COMPILER_LIMIT_PCT;
    }

    /** The blocks without the loud ones. */
    static List<BlockRecord> kept(List<BlockRecord> blocks) {
        return blocks.stream().filter(b -> !loud(b)).toList();
    }

    /**
     * What the rule took from a comparison of a and b: the rounds in which a block of either was left out, of the rounds of
     * their scenario (and cell), and whose JIT did it.
     *
     * @param rounds the rounds that lost a block of a or b
     * @param of     the rounds of the scenario (and cell)
     * @param jvms   "mvc#1's JIT", "mvc#1's and webflux#2's JITs": the JVMs whose own compiler threads were past the limit in
     *               a block of those rounds; "the target JVMs' JITs together" where none was alone
     */
    record LeftOut(int rounds, int of, String jvms) {
        static final LeftOut NONE = new LeftOut(0, 0, "");

        /** "mvc#1's JIT compiled past 2% of a CPU in the blocks of 4 of 15 rounds: those blocks left out". */
        String note() {
            return String.format(Locale.ROOT, "%s compiled past %.0f%% of a CPU in the blocks of %d of %d rounds: those blocks left out", jvms,
                    Comparisons.COMPILER_LIMIT_PCT, rounds, of);
        }
    }

    /** @param blocks one scenario's (cell's) blocks, every target's */
    static LeftOut leftOut(List<BlockRecord> blocks, String a, String b) {
        Set<Integer> rounds = new TreeSet<>();
        blocks.stream().filter(x -> (x.target().equals(a) || x.target().equals(b)) && loud(x)).forEach(x -> rounds.add(x.round()));
        if (rounds.isEmpty()) {
            return LeftOut.NONE;
        }
        boolean sets = blocks.stream().anyMatch(x -> x.set() > 1);
        List<String> jvms = blocks.stream().filter(x -> rounds.contains(x.round()) && ownPct(x) > Comparisons.COMPILER_LIMIT_PCT)
                .map(x -> sets ? x.target() + "#" + x.set() : x.target()).distinct().sorted().toList();
        String who = jvms.isEmpty() ? "the target JVMs' JITs together"
                : String.join(" and ", jvms.stream().map(j -> j + "'s").toList()) + (jvms.size() > 1 ? " JITs" : " JIT");
        return new LeftOut(rounds.size(), (int) blocks.stream().map(BlockRecord::round).distinct().count(), who);
    }

    /** Rounds in which the JVM of {@code target} and {@code set} had a loud block: its blocks the comparisons left out. */
    public static int loudRounds(List<BlockRecord> blocks, String target, int set) {
        return (int) blocks.stream().filter(x -> x.target().equals(target) && x.set() == set && loud(x)).map(BlockRecord::round).distinct().count();
    }

    /** The block's own JVM's compiler threads over its window, % of one CPU; 0 where unknown. */
    private static double ownPct(BlockRecord b) {
        Double own = b.resources().compilerCpuMs();
        return own == null || b.load().seconds() <= 0 ? 0 : own / (b.load().seconds() * 10);
    }
}
