package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.cpuprofile.Category;
import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.cpuprofile.CollapsedStacks;
import dev.loomflux.lab.result.CpuProfile;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU profiles of a scenario as report.js's data: bars of each target's µs of CPU per request per category, a flame graph
 * per target, and for each pair with a CPU-per-request winner a differential flame graph. A target's flame graph is its
 * results' collapsed stacks (both sets in the paired design) as one tree, a frame's width its µs of CPU per request (its
 * samples' share of the target's CPU per request), or its share of the samples where the results have no CPU per request.
 * Frames are coloured by the run's category rules (the user's copy beside results.json first, then the lab's table), each by
 * its own name.
 *
 * <p>The differential graph is the loser's tree, each frame coloured by how many µs per request more (red) or less (blue) the
 * loser spends in that method than the winner, counting every stack through it wherever it was called from. By method, not by
 * path as Brendan Gregg's difffolded does: the same request on a virtual thread and on a platform thread runs under other
 * roots ({@code Continuation.enter} against {@code Thread.run}), so no path of one is in the other and a by-path difference
 * would paint the whole tree red (the default run's mvc-vt against mvc did).
 *
 * <p>A frame narrower than 1/{@value #FINEST} of its tree is left out with everything above it: under a pixel on the page,
 * and the page stays small (a default run's tree keeps a few hundred frames, webflux's deep stacks 8,000).
 */
final class FlameGraphs {
    static final int FINEST = 1000;

    private FlameGraphs() {
    }

    /** The chart ids a scenario's section lists, in the order they are drawn; those without data are left out later. */
    static List<String> ids(String id, List<String> targets, int pairs) {
        List<String> ids = new ArrayList<>(List.of(id + "-categories"));
        for (int i = 0; i < targets.size(); i++) {
            ids.add(id + "-flame-" + i);
        }
        for (int i = 0; i < pairs; i++) {
            ids.add(id + "-flamediff-" + i);
        }
        return ids;
    }

    /**
     * Adds the scenario's charts: {@code <id>-categories}, {@code <id>-flame-<n>} for the n-th target with a profile,
     * {@code <id>-flamediff-<n>} for the n-th pair of {@code pairs} with a CPU-per-request winner.
     */
    static void add(ArrayNode charts, String id, String scenario, List<Result> ok, List<PairComparison> pairs, Path dir) {
        Map<String, ProfiledTarget> profiled = new LinkedHashMap<>();
        for (String target : targets(ok)) {
            ProfiledTarget p = ProfiledTarget.of(target, ok, dir);
            if (p != null) {
                profiled.put(target, p);
            }
        }
        if (profiled.isEmpty()) {
            return;
        }
        CategoryRules rules = CategoryRules.ofRun(dir);
        categories(charts.addObject(), id + "-categories", scenario, profiled);
        int n = 0;
        for (ProfiledTarget p : profiled.values()) {
            ObjectNode c = flame(charts.addObject(), id + "-flame-" + n++, scenario + ": " + p.target + ", CPU flame graph (" + p.tree.samples + " samples, "
                    + p.unit() + "; click a frame to zoom, the root to return)", p.unit());
            c.putArray("series").addObject().put("name", p.target).set("data", p.tree.frames(p.scale(), null, names(c), rules));
        }
        n = 0;
        for (PairComparison pair : winners(pairs)) {
            boolean aWins = PairComparison.A.equals(pair.outcome());
            ProfiledTarget winner = profiled.get(aWins ? pair.a() : pair.b());
            ProfiledTarget loser = profiled.get(aWins ? pair.b() : pair.a());
            if (winner == null || loser == null || winner.perRequest == null || loser.perRequest == null) {
                continue;
            }
            ObjectNode c = flame(charts.addObject(), id + "-flamediff-" + n++, scenario + ": where " + loser.target + " spends more CPU per request than "
                    + winner.target + " (red) and less (blue); widths are " + loser.target + "'s µs per request; one run's samples, no interval", "µs per request");
            Map<String, Double> more = loser.byMethod();
            winner.byMethod().forEach((method, us) -> more.merge(method, -us, Double::sum));
            // Full red or blue at the whole difference between the two: a method's share of it reads as the colour's depth.
            c.put("kind", "flamediff").put("a", loser.target).put("b", winner.target).put("full", Math.abs(more.get(Tree.ROOT)));
            c.putArray("series").addObject().put("name", loser.target).set("data", loser.tree.frames(loser.scale(), more, names(c), rules));
        }
    }

    private static List<String> targets(List<Result> ok) {
        return ok.stream().map(Result::target).distinct().toList();
    }

    private static List<PairComparison> winners(List<PairComparison> pairs) {
        return pairs.stream().filter(c -> c.metricKind() == Metric.CPU_PER_REQUEST && c.wholeScenario()
                && (PairComparison.A.equals(c.outcome()) || PairComparison.B.equals(c.outcome()))).toList();
    }

    /** One bar per target, stacked by category, as the table "Where the CPU goes" gives them (the mean over the target's results). */
    private static void categories(ObjectNode c, String id, String scenario, Map<String, ProfiledTarget> profiled) {
        boolean perRequest = profiled.values().stream().allMatch(p -> p.perRequest != null);
        String unit = perRequest ? "µs per request" : "% of samples";
        ChartData.chart(c, id, scenario + ": where the CPU goes, " + unit + " by category (the profiles' samples in the measured window)", "bars", unit, "target");
        ArrayNode targets = c.putArray("targets");
        profiled.keySet().forEach(targets::add);
        ArrayNode series = c.putArray("series");
        for (Category category : Category.values()) {
            ArrayNode data = series.addObject().put("name", category.label()).putArray("data");
            for (ProfiledTarget p : profiled.values()) {
                Map<String, Double> values = perRequest ? p.perRequest : p.shares;
                data.add(Math.round(values.getOrDefault(category.label(), 0.0) * 100) / 100.0);
            }
        }
    }

    private static ObjectNode flame(ObjectNode c, String id, String title, String unit) {
        ChartData.chart(c, id, title, "flame", unit, "stack depth");
        ArrayNode labels = c.putArray("categories");
        Arrays.stream(Category.values()).forEach(cat -> labels.add(cat.label()));
        return c;
    }

    private static FrameNames names(ObjectNode c) {
        return new FrameNames(c.putArray("names"), new HashMap<>());
    }

    /** A chart's frame names, each once: a frame refers to its name by index, so a deep tree repeats no name. */
    private record FrameNames(ArrayNode list, Map<String, Integer> index) {
        int of(String frame) {
            return index.computeIfAbsent(frame, f -> {
                list.add(f);
                return list.size() - 1;
            });
        }
    }

    /**
     * A target's profile over its results.
     *
     * @param perRequest each category's µs per request, the mean over the results; null when a result has none
     * @param shares     each category's share of the samples in %, over the results
     */
    private record ProfiledTarget(String target, Map<String, Long> stacks, Tree tree, Map<String, Double> perRequest, Map<String, Double> shares) {
        /** @return null when none of the target's results has a profile whose stacks are beside results.json */
        static ProfiledTarget of(String target, List<Result> ok, Path dir) {
            List<CpuProfile> profiles = ok.stream().filter(r -> r.target().equals(target)).map(r -> r.telemetry().profile())
                    .filter(p -> p != null && p.collapsed() != null && Files.isRegularFile(dir.resolve(p.collapsed()))).toList();
            if (profiles.isEmpty()) {
                return null;
            }
            Tree tree = new Tree(Tree.ROOT);
            Map<String, Long> stacks = new HashMap<>();
            Map<String, Double> shares = new LinkedHashMap<>();
            for (CpuProfile p : profiles) {
                CollapsedStacks.read(dir.resolve(p.collapsed())).counts().forEach((stack, n) -> stacks.merge(stack, n, Long::sum));
                p.categories().forEach(c -> shares.merge(c.category(), 100.0 * c.samples(), Double::sum));
            }
            stacks.forEach(tree::add);
            shares.replaceAll((category, samples) -> samples / tree.samples);
            return new ProfiledTarget(target, stacks, tree, CpuBreakdown.usPerRequest(profiles), shares);
        }

        /** A frame's width per sample: µs per request, or % of the samples. */
        double scale() {
            return perRequest == null ? 100.0 / tree.samples : perRequest.values().stream().mapToDouble(Double::doubleValue).sum() / tree.samples;
        }

        /** Each method's µs per request (or % of samples) over every stack through it, a recursive method once per stack. */
        Map<String, Double> byMethod() {
            Map<String, Double> us = new HashMap<>(Map.of(Tree.ROOT, tree.samples * scale()));
            stacks.forEach((stack, n) -> new HashSet<>(Arrays.asList(stack.split(CollapsedStacks.FRAME_SEPARATOR))).forEach(m -> us.merge(m, n * scale(), Double::sum)));
            return us;
        }

        String unit() {
            return perRequest == null ? "% of samples" : "µs per request";
        }
    }

    /** A frame and the samples of every stack through it, its callees by name. */
    private static final class Tree {
        static final String ROOT = "all";
        final String frame;
        long samples;
        final Map<String, Tree> callees = new TreeMap<>();

        Tree(String frame) {
            this.frame = frame;
        }

        void add(String stack, long count) {
            samples += count;
            Tree node = this;
            for (String frame : stack.split(CollapsedStacks.FRAME_SEPARATOR)) {
                node = node.callees.computeIfAbsent(frame, Tree::new);
                node.samples += count;
            }
        }

        /**
         * Every frame at least 1/FINEST of the root wide, root first, each as {@code [from, to, depth, name, category, width]}
         * (name: its index in {@code names})
         * (category: its index in Category's order, -1 for a frame no rule names) and, with {@code more}, a seventh element:
         * its method's difference there.
         *
         * @param more null, or each method's µs per request more than another target's
         */
        ArrayNode frames(double scale, Map<String, Double> more, FrameNames names, CategoryRules rules) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            add(out, 0, 0, samples, scale, more, names, rules);
            return out;
        }

        private void add(ArrayNode out, long from, int depth, long root, double scale, Map<String, Double> more, FrameNames names, CategoryRules rules) {
            ArrayNode f = out.addArray().add(round(from * scale)).add(round((from + samples) * scale)).add(depth).add(names.of(frame))
                    .add(depth == 0 ? -1 : category(frame, rules)).add(round(samples * scale));
            if (more != null) {
                f.add(round(more.get(frame)));
            }
            long at = from;
            for (Tree callee : callees.values()) {
                if (callee.samples * FINEST >= root) {
                    callee.add(out, at, depth + 1, root, scale, more, names, rules);
                }
                at += callee.samples;
            }
        }

        private static int category(String frame, CategoryRules rules) {
            Category c = rules.classify(frame);
            return c == Category.OTHER ? -1 : c.ordinal();
        }

        private static double round(double v) {
            return Math.round(v * 1000) / 1000.0;
        }
    }
}
