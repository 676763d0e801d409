package dev.loomflux.lab.report;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.verdict.Comparisons;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How quiet each JVM of a paired run was, per scenario (sweep cell): its load stage ended quiet or at its cap
 * ({@code steady_state.reached}); its own compiler threads' CPU over each of its own blocks against
 * {@link Comparisons#COMPILER_LIMIT_PCT}; and its finished compilations' share of the rounds' time (hsperfdata) against
 * {@link Comparisons#JIT_LIMIT_PCT}. A JVM past any of them never got quiet, and the report names it where its figures are read:
 * in the answer matrix's cells of its target, not only in a caveat (docs/steady-state.md, "The report: time to steady and the
 * JIT per round"). A block's own compiler CPU names the JVM that compiled; the others' part of the block names none of them.
 *
 * @param loadStage   whether its load stage ended quiet; null without a steady_state
 * @param blocks      its blocks with a compiler reading
 * @param over        of those, the blocks in which its own compiler threads passed the limit
 * @param maxOwnPct   its own compiler threads' most over one of its blocks, % of one CPU; null without a reading
 * @param jitSharePct its JIT's share of the rounds' time (hsperfdata), %; null without JIT time
 */
record Quiet(String where, String target, int set, String name, Boolean loadStage, int blocks, int over, Double maxOwnPct, Double jitSharePct) {
    /** Every JVM of the run in rounds that has a result or a block, in the results' order. */
    static List<Quiet> of(RunRecord root) {
        List<BlockRecord> all = root.paired().blocks() == null ? List.of() : root.paired().blocks();
        boolean sets = root.jvmsPerTarget() > 1 || all.stream().anyMatch(b -> b.set() > 1);
        Map<String, Result> results = new LinkedHashMap<>();
        root.results().stream().filter(r -> r.ok() && r.key().step() == null)
                .forEach(r -> results.put(key(BlockRecord.where(r.scenario(), r.key().cell()), r.target(), r.jvm()), r));
        Map<String, List<BlockRecord>> blocks = all.stream().collect(Collectors.groupingBy(b -> key(b.where(), b.target(), b.set()), LinkedHashMap::new,
                Collectors.toList()));
        List<String> keys = new ArrayList<>(results.keySet());
        blocks.keySet().stream().filter(k -> !keys.contains(k)).forEach(keys::add);
        Map<String, Map<String, Map<Integer, Double>>> shares = new LinkedHashMap<>();
        List<Quiet> out = new ArrayList<>();
        for (String k : keys) {
            String[] f = k.split("\n");
            int set = Integer.parseInt(f[2]);
            Result r = results.get(k);
            SteadyState ss = r == null ? null : r.checks().steadyState();
            List<BlockRecord> own = blocks.getOrDefault(k, List.of()).stream().filter(b -> b.resources().compilerCpuMs() != null && b.load().seconds() > 0).toList();
            double[] pct = own.stream().mapToDouble(Quiet::ownPct).toArray();
            Double share = shares.computeIfAbsent(f[0], w -> Comparisons.jitShares(all.stream().filter(b -> b.where().equals(w)).toList()))
                    .getOrDefault(f[1], Map.of()).get(set);
            out.add(new Quiet(f[0], f[1], set, f[1] + (sets ? " set " + set : ""), ss == null ? null : ss.reached(), pct.length,
                    (int) Arrays.stream(pct).filter(p -> p > Comparisons.COMPILER_LIMIT_PCT).count(),
                    pct.length == 0 ? null : Arrays.stream(pct).max().orElseThrow(), share));
        }
        return out;
    }

    private static String key(String where, String target, int set) {
        return where + "\n" + target + "\n" + set;
    }

    /** Its own JVM's compiler threads over a block's window, % of one CPU. */
    static double ownPct(BlockRecord b) {
        return b.resources().compilerCpuMs() / (b.load().seconds() * 10);
    }

    /** Whether it never got quiet: its load stage ran out, or the rounds saw it compile past a limit. */
    boolean loud() {
        return Boolean.FALSE.equals(loadStage) || over > 0 || jitSharePct != null && jitSharePct > Comparisons.JIT_LIMIT_PCT;
    }

    /** Why, shortly, as a cell of the answer matrix says it: "load stage at its cap; compiler past 2% in 3 of 20 blocks". */
    String why() {
        List<String> why = new ArrayList<>();
        if (Boolean.FALSE.equals(loadStage)) {
            why.add("load stage at its cap");
        }
        if (over > 0) {
            why.add(String.format(Locale.ROOT, "compiler past %s%% of a CPU in %d of %d blocks", Cells.num(Comparisons.COMPILER_LIMIT_PCT), over, blocks));
        }
        if (jitSharePct != null && jitSharePct > Comparisons.JIT_LIMIT_PCT) {
            why.add(String.format(Locale.ROOT, "JIT %.1f%% of the rounds (limit %s%%)", jitSharePct, Cells.num(Comparisons.JIT_LIMIT_PCT)));
        }
        return String.join("; ", why);
    }

    /** "; not quiet: mvc set 2 (load stage at its cap)" for the JVMs of a pair that never got quiet there, else "". */
    static String note(List<Quiet> all, String where, String a, String b) {
        List<String> loud = all.stream().filter(q -> q.where().equals(where) && (q.target().equals(a) || q.target().equals(b)) && q.loud())
                .map(q -> q.name() + " (" + q.why() + ")").toList();
        return loud.isEmpty() ? "" : "; not quiet: " + String.join(", ", loud);
    }
}
