package dev.loomflux.lab.report;

import dev.loomflux.lab.cpuprofile.Profiler;
import dev.loomflux.lab.cpuprofile.SamplerCost;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.ProfilerCost;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.result.Summary;
import dev.loomflux.lab.stats.Paired;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.verdict.Comparisons;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** What limits a run's numbers, one bullet each: the model of load, the design, the machine, and each result that failed or was not steady. */
final class Caveats {
    /** A measured window shorter than this, in seconds, is called noisy. */
    private static final int SHORT_S = 10;

    private Caveats() {
    }

    /** What the run's CPU sampler cost a probe on this host, as its log said it: JFR's own figure, when measured too, goes into the line of the other. */
    static List<String> profilerCosts(Environment env) {
        List<ProfilerCost> costs = env == null || env.profilerCosts() == null ? List.of() : env.profilerCosts();
        ProfilerCost jfr = costs.stream().filter(c -> c.profiler().equals(Profiler.JFR.label())).findFirst().orElse(null);
        return costs.stream().filter(c -> c != jfr || costs.size() == 1).map(c -> SamplerCost.line(c, c == jfr ? null : jfr)).toList();
    }

    /** What limits these numbers, one bullet each. */
    static List<Paragraph> of(RunRecord root) {
        List<Paragraph> out = new ArrayList<>();
        String kind = root.experiment().profile().kind();
        if (!root.completed()) {
            out.add(Paragraph.bullet("The run did not complete (status " + root.header().status() + "): results are partial."));
        }
        if (!kind.equals("rate") && root.summaries().capacity() == null) {
            out.add(Paragraph.bullet("Closed model (" + kind + "): each user waits for its response before sending again, so when a server "
                    + "saturates it is offered less load and its percentiles are optimistic (coordinated omission). "
                    + "For latency at a given load use --profile rate or ./lab capacity."));
        }
        ExperimentDescription.ThinkDescription think = root.experiment().profile().think();
        if (think != null) {
            out.add(Paragraph.bullet("Think time: every user paused " + (think.minMs() == think.maxMs() ? think.minMs() + " ms"
                    : "between " + think.minMs() + " and " + think.maxMs() + " ms (uniform)") + " after each response, its connection kept open "
                    + "and idle. Throughput then follows users / (latency + pause), set mostly by the pause: latency and CPU per request "
                    + "tell the targets apart."));
        }
        profilerCosts(root.environment()).forEach(line -> out.add(Paragraph.bullet(line)));
        boolean paired = root.paired().comparisons() != null && !root.paired().comparisons().isEmpty();
        if (paired) {
            ExperimentDescription.DesignDescription d = root.experiment().design();
            out.add(Paragraph.bullet("Paired design: every target's JVM was started and warmed first, then all were measured in "
                    + (root.paired().stops() != null ? "up to " : "") + d.rounds() + " rounds of "
                    + Cells.blocks(root.experiment()) + ", one block per target per round in a new random order; verdicts come from per-round "
                    + "ratios (95% Wilcoxon intervals) and need the whole interval beyond " + Cells.num(Stats.MIN_EFFECT_PCT) + "%. "
                    + (root.jvmsPerTarget() > 1 ? root.jvmsPerTarget() + " sets of JVMs were measured in the same rounds and pooled round by round; a winner "
                    + "only where every set shows it."
                    : "One set of JVMs: the ratios hold for these JVMs; JVM-to-JVM variation (each JIT compiles its own way) is not covered, "
                    + "--sets 2 or more samples it.")));
            if (root.paired().stops() != null) {
                root.paired().stops().forEach(st -> out.add(Paragraph.bullet(stopped(st))));
            }
            if (root.paired().blocks() != null && root.paired().blocks().stream().anyMatch(b -> b.agents() != null)) {
                out.add(Paragraph.bullet(onAgents(driverTitle(root), root.paired().blocks())));
            }
            if (root.jvmsPerTarget() > 1 && root.paired().blocks() != null) {
                out.add(Paragraph.bullet(jvmSpread(root) + " A ratio between two targets carries such differences of both its targets' JVMs, which the intervals "
                        + "above, over rounds, do not cover; more sets (--sets) average them (docs/reproducibility.md)."));
            }
            long slow = root.paired().blocks() == null ? 0 : root.paired().blocks().stream()
                    .filter(b -> b.latency().meanMs() != null && b.latency().meanMs() > 0.04 * b.load().seconds() * 1000).count();
            if (root.paired().blocks() != null) {
                Map<String, Double> rss = new LinkedHashMap<>();
                root.paired().blocks().stream().filter(b -> b.resources().rssMb() != null).forEach(b -> rss.merge(b.target(), b.resources().rssMb(), Math::max));
                if (!rss.isEmpty()) {
                    out.add(Paragraph.bullet("All targets were resident at once; their peak resident memory over the blocks: " + String.join(", ",
                            rss.entrySet().stream().map(e -> e.getKey() + " " + Cells.num(e.getValue()) + " MB").toList())
                            + ". A target idles, with its heap and threads, while the others are measured."));
                }
            }
            long paced = root.paired().blocks() == null ? 0 : root.paired().blocks().stream().filter(Comparisons::paced).count();
            if (paced > 0) {
                out.add(Paragraph.bullet(paced + " of " + root.paired().blocks().size() + " block(s) had fewer than " + Math.round(Comparisons.MIN_BUSY * 100)
                        + "% of the users in a request" + (think == null ? "" : " or a pause") + " on average (Little's law): the load side (the driver's CPU, or the "
                        + "database's where it shares that CPU) set their pace, not the target. Their rounds are left out of the comparisons."));
            }
            if (slow > 0) {
                out.add(Paragraph.bullet(slow + " block(s) had a mean latency above 4% of the block: users start a block together, so its throughput "
                        + "over-counts by up to half the latency over the block. Use a longer --block."));
            }
        } else if (root.jvmsPerTarget() < Stats.MIN_REPEATS && !ReportContent.inRounds(root)) {
            out.add(Paragraph.bullet("Fewer than " + Stats.MIN_REPEATS + " runs per target x scenario: no verdicts. The machine's CPU speed can change "
                    + "by tens of percent within a minute, so a difference between single runs may be the machine's, not the targets'. "
                    + "Use --repeat 3 (or more) for confidence intervals and verdicts."));
        }
        Environment.Pinning pinning = root.environment() == null ? null : root.environment().pinning();
        if (pinning != null && !pinning.applied()) {
            out.add(Paragraph.bullet("CPU pinning was not applied (" + pinning.note() + "): the driver and the target shared CPUs."));
        }
        List<String> shortRuns = new ArrayList<>();
        for (Result r : root.results()) {
            String who = r.target() + " " + r.scenario() + (r.key().cell() != null ? " " + r.cellLabel() : "")
                    + (r.key().step() != null ? " step " + r.key().step() : r.jvm() > 1 ? " " + r.jvmLabel() : "");
            if (!r.ok()) {
                out.add(Paragraph.bullet(who + " failed: " + firstLine(String.valueOf(r.outcome().error())).replaceFirst("; last lines:$", ".") + untilDeath(r)));
                continue;
            }
            if (r.checks().driver() != null && r.checks().driver().saturated()) {
                List<String> agents = r.checks().driver().agents() == null ? List.of() : r.checks().driver().agents().stream()
                        .filter(a -> Boolean.TRUE.equals(a.saturated()))
                        .map(a -> "agent " + a.agent() + " " + Cells.num(a.cpuPctMean()) + "% of its " + a.cpus() + " cores' " + a.cpus() * 100 + "%").toList();
                out.add(Paragraph.bullet(who + ": the driver saturated its CPU (" + (agents.isEmpty() ? Cells.num(r.checks().driver().cpuPctMax()) + "%"
                        : String.join(", ", agents)) + "); the numbers describe the driver, not the target."));
            }
            if (Boolean.TRUE.equals(r.load().behindSchedule())) {
                out.add(Paragraph.bullet(who + ": the driver fell behind the arrival schedule; requests it could not send are missing from the latencies."));
            }
            if (r.load().durationS() != null && r.load().durationS() < SHORT_S) {
                shortRuns.add(who + " " + Cells.num(r.load().durationS()) + " s");
            }
            SteadyState ss = r.checks().steadyState();
            String roundsNote = ss == null || ss.drift() == null ? null : ss.drift().note();
            if (Summary.warmFromCellBefore(r)) {
                if (roundsNote != null) {
                    out.add(Paragraph.bullet(who + ": warm from the cell before; " + roundsNote + "."));
                }
            } else if (ss != null && !ss.reached() && paired) {
                out.add(Paragraph.bullet(who + ": not steady after " + Cells.num(ss.warmupS()) + " s of warmup; "
                        + (roundsNote == null ? quietJit(ss) + "its rounds showed no trend against the other targets, so it takes part in the verdicts."
                        : roundsNote + (ss.steady() ? "." : ": no verdict."))));
            } else if (ss != null && !ss.reached()) {
                List<String> reasons = ss.rule() == null ? List.of() : ss.rule().reasons();
                out.add(Paragraph.bullet(who + ": not steady after " + Cells.num(ss.warmupS()) + " s of warmup"
                        + (reasons.isEmpty() ? "" : " (" + String.join("; ", reasons) + ")") + "; its figures may include JIT warmup. Use a longer --warmup."));
            }
            if (roundsNote != null && (paired || ss.drift().drifting()) && !(paired && !ss.reached())) {
                out.add(Paragraph.bullet(who + ": " + roundsNote + (paired && !ss.steady() ? ": no verdict." : paired ? "." : "")));
            }
        }
        reconnections(root).ifPresent(out::add);
        if (!shortRuns.isEmpty()) {
            out.add(Paragraph.bullet((shortRuns.size() > 3 ? shortRuns.size() + " of " + root.results().size() + " results"
                    : String.join(", ", shortRuns)) + " measured for less than " + SHORT_S + " s; short runs are noisy."));
        }
        return out;
    }

    /**
     * A target that closes its kept-alive connections (Connection: close, as Tomcat sends after
     * max-keep-alive-requests) makes the driver reconnect: not an error, but work the others may not do.
     */
    static Optional<Paragraph> reconnections(RunRecord root) {
        Map<String, long[]> byTarget = new LinkedHashMap<>();
        for (Result r : root.results()) {
            if (r.ok() && r.load().responses() != null && r.load().reconnections() != null) {
                long[] sum = byTarget.computeIfAbsent(r.target(), t -> new long[2]);
                sum[0] += r.load().reconnections();
                sum[1] += r.load().responses();
            }
        }
        List<String> closing = byTarget.entrySet().stream().filter(e -> e.getValue()[0] > 0)
                .map(e -> e.getKey() + " 1 per " + Cells.num(Math.max(1, Math.round((double) e.getValue()[1] / e.getValue()[0]))) + " responses").toList();
        if (closing.isEmpty()) {
            return Optional.empty();
        }
        List<String> keeping = byTarget.entrySet().stream().filter(e -> e.getValue()[0] == 0).map(Map.Entry::getKey).toList();
        return Optional.of(Paragraph.bullet("Connections closed by the server (Connection: close), each reopened by the driver and counted, not an error: "
                + String.join(", ", closing) + "." + (keeping.isEmpty() ? "" : " " + String.join(", ", keeping) + " kept "
                + (keeping.size() == 1 ? "its" : "theirs") + " open: reconnecting is work the others did not do.")));
    }

    /** "its JIT compiled 0.4 s in the rounds; " where the rounds read it, else nothing. */
    private static String quietJit(SteadyState ss) {
        SteadyState.JitWork j = ss.jit() == null ? null : ss.jit().measured();
        return j == null ? "" : "its JIT compiled for " + Cells.num(j.compileMs() / 1000) + " s in the rounds (" + j.compiles() + " compiles), under the limit; ";
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** "The same jar's JVMs, set 2 against set 1 (throughput per round): json: mvc 0.902 (95% CI 0.871-0.934), ...". */
    private static String jvmSpread(RunRecord root) {
        List<String> parts = new ArrayList<>();
        List<String> scenarios = root.paired().blocks().stream().map(b -> b.scenario()).distinct().toList();
        List<String> targets = root.paired().blocks().stream().map(b -> b.target()).distinct().sorted().toList();
        for (String scenario : scenarios) {
            List<String> ratios = new ArrayList<>();
            for (String t : targets) {
                for (int set = 2; set <= root.jvmsPerTarget(); set++) {
                    Paired p = Comparisons.jvmRatio(root.paired().blocks(), scenario, t, set);
                    if (p.rounds() > 0) {
                        ratios.add(t + (root.jvmsPerTarget() > 2 ? " set " + set : "") + " " + p.describe());
                    }
                }
            }
            if (!ratios.isEmpty()) {
                parts.add((scenarios.size() > 1 ? scenario + ": " : "") + String.join(", ", ratios));
            }
        }
        return "The same jar's JVMs in this run, " + (root.jvmsPerTarget() > 2 ? "each set" : "set 2") + " against set 1 (throughput per round): "
                + String.join("; ", parts) + ".";
    }

    /** " It died 17 s after its first request, at 9,943 users; its last second: 1,450 MB resident, 31 threads, 10,215 open files." */
    private static String untilDeath(Result r) {
        if (r.telemetry().series() == null || r.telemetry().series().isEmpty()) {
            return "";
        }
        Result.PerSecond last = r.telemetry().series().get(r.telemetry().series().size() - 1);
        List<String> held = new ArrayList<>();
        if (last.target().rssMb() != null) {
            held.add(Cells.num(last.target().rssMb()) + " MB resident");
        }
        if (last.target().threads() != null) {
            held.add(Cells.num(last.target().threads()) + " threads");
        }
        if (last.target().fds() != null) {
            held.add(Cells.num(last.target().fds()) + " open files");
        }
        return " It died " + (last.t() + 1) + " s after its first request, at " + Cells.num(last.load().users()) + " users"
                + (held.isEmpty() ? "" : "; its last second: " + String.join(", ", held)) + " (its resource charts end there).";
    }

    /**
     * "json: the rounds stopped after 15 of 45 (every comparison has an outcome), 3:05 after its warmup began; looks after
     * rounds 10 (4 open) and 15 (none open); the intervals are at level 0.0047, the 5% the looks share."
     */
    static String stopped(RoundsStop st) {
        List<String> looks = st.looks().stream().filter(l -> l.open() >= 0)
                .map(l -> l.round() + " (" + (l.open() == 0 ? "none" : String.valueOf(l.open())) + " open)").toList();
        return String.format(Locale.ROOT, "%s: the rounds stopped after %d of %d (%s), %d:%02d after its warmup began; %s; the intervals are at "
                        + "level %.4f, what the looks left of 5%%, so that all of them together cover the truth 95%% of the time "
                        + "(docs/statistics.md, \"Stopping when the answer is known\").", st.where(), st.rounds(), st.cap(), st.reason(),
                (int) st.seconds() / 60, (int) st.seconds() % 60, looks.isEmpty() ? "no look before" : "looks after rounds " + String.join(", ", looks),
                st.level());
    }

    /** The run's driver as a sentence names it: its title in the registry; one the registry does not know, by its recorded name. */
    private static String driverTitle(RunRecord root) {
        String name = root.experiment().driver();
        DriverType known = name == null ? null : Drivers.ALL.find(name);
        return known != null ? known.title() : String.valueOf(name);
    }

    /**
     * "Every block ran on 2 JMeter agents at once, the lab conducting them: their gates opened within 1.0 ms of each other in the
     * median block (3.9 ms at most), each agent's clock known within 1.2 and 5.0 ms; in flight per agent over the blocks: ..."
     */
    static String onAgents(String driver, List<BlockRecord> blocks) {
        List<BlockRecord> on = blocks.stream().filter(b -> b.agents() != null && !b.agents().isEmpty()).toList();
        double[] spreads = on.stream().mapToDouble(BlockRecord::alignmentMs).sorted().toArray();
        Map<String, double[]> perAgent = new LinkedHashMap<>();
        on.forEach(b -> b.agents().forEach(a -> {
            double[] sum = perAgent.computeIfAbsent(a.agent(), k -> new double[3]);
            sum[0] += a.inFlight();
            sum[1]++;
            sum[2] = Math.max(sum[2], a.clockErrorMs());
        }));
        return String.format(Locale.ROOT, "Every block ran on %d %s agents at once, the lab conducting them: their gates opened within %.1f ms of "
                        + "each other in the median block (%.1f ms at most), each agent's clock known within %s ms; the mean requests each kept in "
                        + "flight: %s (docs/scale-out.md, \"Paired rounds on agents\").", perAgent.size(), driver, spreads[spreads.length / 2], spreads[spreads.length - 1],
                perAgent.values().stream().map(v -> Cells.num(v[2])).collect(java.util.stream.Collectors.joining(", ")),
                perAgent.entrySet().stream().map(e -> e.getKey() + " " + Cells.num(e.getValue()[0] / e.getValue()[1])).collect(java.util.stream.Collectors.joining(", ")));
    }
}
