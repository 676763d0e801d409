package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.LeadIn;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.verdict.Comparisons;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A paired scenario's JIT per round, beside its throughput per round: per target and set, the CPU the target JVMs' compiler
 * threads took over each of its blocks (% of one CPU, {@link BlockRecord.Resources#compilerPct}, the figure a block is judged
 * by) and its own JVM's part of it, the limit {@link Comparisons#COMPILER_LIMIT_PCT} as a line, and before round 1 the lead-in
 * rounds' figure (over each round's blocks). report.html draws it as a chart; both reports have the same in a compact table, a row per JVM
 * (docs/steady-state.md, "The report: time to steady and the JIT per round").
 */
final class RoundsJit {
    private RoundsJit() {
    }

    /** The scenario's chart; without a compiler reading it has no point and {@link ChartData} leaves it out. */
    static void chart(ArrayNode charts, String id, String scenario, RunRecord root) {
        ObjectNode c = ChartData.chart(charts.addObject(), id, scenario + ": compiler threads per block, % of one CPU (dashed: its JVM's own)", "time", "round", "% of one CPU");
        c.put("limit", Comparisons.COMPILER_LIMIT_PCT);
        ArrayNode series = c.putArray("series");
        LeadIn leadIn = leadIn(root, scenario);
        if (leadIn != null) {
            ArrayNode data = series.addObject().put("name", "lead-in rounds (the most of any block)").putArray("data");
            int n = leadIn.compilerPct().size();
            // The last lead-in round at 0, just before round 1.
            for (int i = 0; i < n; i++) {
                if (leadIn.compilerPct().get(i) != null) {
                    data.addArray().add((double) i - n + 1).add(leadIn.compilerPct().get(i));
                }
            }
        }
        boolean sets = Quiet.of(root).stream().anyMatch(q -> q.set() > 1);
        for (Quiet q : jvms(root, scenario)) {
            String name = q.target() + (sets ? " #" + q.set() : "");
            ArrayNode all = series.addObject().put("name", name).putArray("data");
            ArrayNode own = series.addObject().put("name", name + " own").put("dashed", true).putArray("data");
            for (BlockRecord b : blocks(root, q)) {
                Double pct = b.resources().compilerPct(b.load().seconds());
                if (pct != null) {
                    all.addArray().add((double) b.round()).add(round(pct));
                }
                if (b.resources().compilerCpuMs() != null && b.load().seconds() > 0) {
                    own.addArray().add((double) b.round()).add(round(Quiet.ownPct(b)));
                }
            }
        }
    }

    /** The same per JVM: its rounds, throughput, the compiler CPU over its blocks and its own part, its JIT's share of the rounds. */
    static Table table(RunRecord root, String scenario) {
        List<List<String>> rows = new ArrayList<>();
        for (Quiet q : jvms(root, scenario)) {
            List<BlockRecord> blocks = blocks(root, q);
            if (q.blocks() == 0 && q.jitSharePct() == null) {
                continue;
            }
            double[] rps = blocks.stream().mapToDouble(b -> b.load().rps()).toArray();
            double[] all = blocks.stream().map(b -> b.resources().compilerPct(b.load().seconds())).filter(p -> p != null).mapToDouble(Double::doubleValue).toArray();
            rows.add(List.of(q.name(), String.valueOf(blocks.size()), rps.length == 0 ? "-" : Cells.num(median(rps)) + " (" + Cells.num(min(rps)) + "-"
                    + Cells.num(max(rps)) + ")", all.length == 0 ? "-" : pct(median(all)) + " / " + pct(max(all)),
                    q.maxOwnPct() == null ? "-" : pct(q.maxOwnPct()), q.blocks() == 0 ? "-" : q.over() + " of " + q.blocks(),
                    q.jitSharePct() == null ? "-" : pct(q.jitSharePct()) + "%", q.loud() ? "no: " + q.why() : "yes"));
        }
        return new Table("JIT in the rounds: the target JVMs' compiler threads over each block, % of one CPU (limit "
                + Cells.num(Comparisons.COMPILER_LIMIT_PCT) + "%); its finished compilations' share of the rounds' time (limit "
                + Cells.num(Comparisons.JIT_LIMIT_PCT) + "%)",
                List.of("JVM", "rounds", "throughput rps median (min-max)", "compiler % all JVMs median / max", "compiler % own max",
                        "own blocks past the limit", "JIT share of the rounds", "quiet"), rows);
    }

    /** The scenario's JVMs outside a sweep's cells, in the results' order. */
    private static List<Quiet> jvms(RunRecord root, String scenario) {
        return Quiet.of(root).stream().filter(q -> q.where().equals(scenario)).toList();
    }

    private static List<BlockRecord> blocks(RunRecord root, Quiet q) {
        return root.paired().blocks() == null ? List.of() : root.paired().blocks().stream()
                .filter(b -> b.where().equals(q.where()) && b.target().equals(q.target()) && b.set() == q.set()).toList();
    }

    static LeadIn leadIn(RunRecord root, String where) {
        return root.paired().leadIns() == null ? null : root.paired().leadIns().stream().filter(l -> l.where().equals(where)).findFirst().orElse(null);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElseThrow();
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElseThrow();
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
