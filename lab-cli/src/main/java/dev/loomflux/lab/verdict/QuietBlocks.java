package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which pairs of measured blocks a comparison keeps, judged by the JIT compiler threads over their windows (docs/statistics.md,
 * "A JIT still compiling in the rounds"). A set's blocks of a and b in one round are left out together when either
 * block's own JVM's compiler threads took more than {@link Comparisons#COMPILER_LIMIT_PCT} of a CPU over its window (its
 * code was still changing: such a JVM ran at down to 1 - 3p of its later speed), or when the two windows' compiler
 * threads, every target JVM's together, differ by more than that (one block was robbed of the target's CPU, the other
 * not). Another JVM's compiling that lands on both blocks alike cancels in their ratio, as the machine's speed does; a
 * share of the rounds' JIT time widens nothing. A block without the figures (an older file, a JVM /proc cannot read)
 * counts as quiet.
 */
public final class QuietBlocks {
    private QuietBlocks() {
    }

    /** Whether the block's own JVM's compiler threads took more than the limit of one CPU over its window. */
    static boolean loud(BlockRecord b) {
        return own(b) > Comparisons.COMPILER_LIMIT_PCT;
    }

    /** Whether a's and b's blocks of one set and round cannot pair: either compiled, or one was robbed of CPU the other was not. */
    static boolean apart(BlockRecord x, BlockRecord y) {
        return loud(x) || loud(y) || Math.abs(all(x) - all(y)) > Comparisons.COMPILER_LIMIT_PCT;
    }

    /** The blocks without a's and b's of the set-rounds whose pair is {@link #apart}; every other block as it is. */
    static List<BlockRecord> kept(List<BlockRecord> blocks, String a, String b) {
        return without(blocks, a, b, apartRounds(blocks, a, b));
    }

    /** The blocks without a's and b's of the set-rounds whose pair no bound holds ({@link #offBy} infinite): the rounds judged within their bounds. */
    static List<BlockRecord> bounded(List<BlockRecord> blocks, String a, String b) {
        Set<String> out = new TreeSet<>();
        offBy(blocks, a, b).forEach((key, off) -> {
            if (!Double.isFinite(off)) {
                out.add(key);
            }
        });
        return without(blocks, a, b, out);
    }

    /** The blocks without a's and b's of the set-rounds ("set/round") in {@code out}. */
    private static List<BlockRecord> without(List<BlockRecord> blocks, String a, String b, Set<String> out) {
        return out.isEmpty() ? blocks : blocks.stream().filter(x -> !(x.target().equals(a) || x.target().equals(b)) || !out.contains(x.set() + "/" + x.round()))
                .toList();
    }

    /** "set/round" of the pairs of a's and b's blocks that are {@link #apart}. */
    private static Set<String> apartRounds(List<BlockRecord> blocks, String a, String b) {
        return new TreeSet<>(offBy(blocks, a, b).keySet());
    }

    /**
     * Of each pair of a's and b's blocks that is {@link #apart}, keyed "set/round": how far, in logs, the JITs may have moved
     * its ratio either way. A block whose own JIT took a share q of a CPU over its window ran at no less than 1 - 3q of its
     * later speed, as the JVMs measured past the limit did (docs/statistics.md, "A JIT still compiling in the rounds"); a
     * difference d in the other JVMs' compiling took at most d of a CPU from one block. Infinite from q = 1/3 on.
     */
    static Map<String, Double> offBy(List<BlockRecord> blocks, String a, String b) {
        Map<String, BlockRecord> bs = new HashMap<>();
        blocks.stream().filter(x -> x.target().equals(b)).forEach(x -> bs.put(x.set() + "/" + x.round(), x));
        Map<String, Double> out = new TreeMap<>();
        for (BlockRecord x : blocks) {
            BlockRecord y = x.target().equals(a) ? bs.get(x.set() + "/" + x.round()) : null;
            if (y != null && apart(x, y)) {
                double own = 3 * Math.max(own(x), own(y)) / 100;
                double robbed = Math.abs(all(x) - own(x) - (all(y) - own(y))) / 100;
                out.put(x.set() + "/" + x.round(), own >= 1 || robbed >= 1 ? Double.POSITIVE_INFINITY : -Math.log1p(-own) - Math.log1p(-robbed));
            }
        }
        return out;
    }

    /**
     * What the rule took from a comparison of a and b: the rounds in which a block of either was left out, of the rounds of
     * their scenario (and cell), and whose JIT did it.
     *
     * @param rounds the rounds that lost a block of a or b
     * @param of     the rounds of the scenario (and cell)
     * @param jvms   "mvc#1's JIT", "mvc#1's and webflux#2's JITs": the JVMs whose own compiler threads were past the limit in
     *               a block of those rounds; "the target JVMs' JITs" where none was, and the pairs differed by others' compiling
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
        apartRounds(blocks, a, b).forEach(k -> rounds.add(Integer.parseInt(k.substring(k.indexOf('/') + 1))));
        if (rounds.isEmpty()) {
            return LeftOut.NONE;
        }
        boolean sets = blocks.stream().anyMatch(x -> x.set() > 1);
        List<String> jvms = blocks.stream().filter(x -> rounds.contains(x.round()) && loud(x))
                .map(x -> sets ? x.target() + "#" + x.set() : x.target()).distinct().sorted().toList();
        String who = jvms.isEmpty() ? "the target JVMs' JITs"
                : String.join(" and ", jvms.stream().map(j -> j + "'s").toList()) + (jvms.size() > 1 ? " JITs" : " JIT");
        return new LeftOut(rounds.size(), (int) blocks.stream().map(BlockRecord::round).distinct().count(), who);
    }

    /** Rounds in which the JVM of {@code target} and {@code set} compiled past the limit over its block: its pairs left out. */
    public static int loudRounds(List<BlockRecord> blocks, String target, int set) {
        return (int) blocks.stream().filter(x -> x.target().equals(target) && x.set() == set && loud(x)).map(BlockRecord::round).distinct().count();
    }

    /** The block's own JVM's compiler threads over its window, % of one CPU; 0 where unknown. */
    private static double own(BlockRecord b) {
        Double ms = b.resources().compilerCpuMs();
        return ms == null || b.load().seconds() <= 0 ? 0 : ms / (b.load().seconds() * 10);
    }

    /** Every target JVM's compiler threads over the block's window, % of one CPU; 0 where unknown. */
    private static double all(BlockRecord b) {
        Double pct = b.resources().compilerPct(b.load().seconds());
        return pct == null ? 0 : pct;
    }
}
