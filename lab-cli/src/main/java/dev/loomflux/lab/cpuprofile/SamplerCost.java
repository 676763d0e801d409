package dev.loomflux.lab.cpuprofile;

import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import dev.loomflux.lab.result.ProfilerCost;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * What a CPU sampler costs on this host (docs/telemetry.md, "What the profiler costs on this host"): the probe ({@link CostProbe})
 * as its own JVM, without and with the sampler in pairs, every other pair the other way round (ABBAAB...), each with the targets' other flags and where the targets
 * run; the cost is 1 - the median over the pairs of with / without, pair by pair so that a host that drifts over the check
 * cancels out. The probe's failure is a note in the result, never an exception: a check must not cost the run.
 */
public final class SamplerCost {
    /**
     * Past it the run says the sampler's figures are not the apps' own speed: twice the lab's 5% rule (a sampler that costs
     * more could move a target by more than the smallest difference the lab calls, and its cost differs per target with its
     * threads and stacks), and above the probe's own noise between pairs; the figures behind it: docs/telemetry.md.
     */
    public static final double LIMIT_PCT = 10;
    /**
     * Pairs of probes, without then with. One pair in three can stray by 20% on a noisy host; over 3 pairs two once did (CI,
     * a harmless flag read 9.9%), which a median over 5 absorbs (docs/telemetry.md).
     */
    public static final int PAIRS = 5;
    /** As many threads as a default run's users. */
    static final int THREADS = 50;
    static final long WARM_MS = 1_000;
    static final long MEASURED_MS = 2_000;
    /** A probe takes about 4 s; a JVM that takes this long is stuck. */
    private static final long TIMEOUT_S = 60;

    private SamplerCost() {
    }

    /**
     * The probe JVM's two launches.
     *
     * @param jdk     the targets' JDK
     * @param prefix  where the targets run: {@code taskset -c <target CPUs>} when the run pins, else empty
     * @param without the JVM flags of A
     * @param with    those of B
     * @param dir     where the probes' logs (and an agent's recordings) go
     */
    public record Probe(Jdk jdk, List<String> prefix, List<String> without, List<String> with, Path dir) {
        public Probe {
            prefix = List.copyOf(prefix);
            without = List.copyOf(without);
            with = List.copyOf(with);
        }

        /** B with exactly the flags a target gets, its sampler's included; A with them less the sampler ({@link #withoutSampler}). */
        public static Probe ofSampler(Jdk jdk, List<String> prefix, List<String> targetFlags, Path dir) {
            return new Probe(jdk, prefix, withoutSampler(targetFlags), targetFlags, dir);
        }
    }

    /**
     * Runs {@code pairs} pairs, A then B and B then A in turn, stopping early (with a note) when told to stop; the cost is B's against A's.
     *
     * @param owner owns each probe JVM while it runs, so that Ctrl-C leaves none
     */
    public static ProfilerCost measure(Profiler profiler, Probe probe, int pairs, LabProcesses owner, BooleanSupplier stop) {
        List<Long> a = new ArrayList<>();
        List<Long> b = new ArrayList<>();
        try {
            for (int i = 1; i <= pairs; i++) {
                if (stop.getAsBoolean()) {
                    return failed(profiler, a, b, "stopped");
                }
                // Every other pair the other way round (ABBAAB...): a JVM that runs second in a pair (after another's exit)
                // must not make either side look slower.
                boolean withFirst = i % 2 == 0;
                long first = run(probe, withFirst ? probe.with() : probe.without(), "probe-" + i + (withFirst ? "-with" : "-without"), owner);
                if (stop.getAsBoolean()) {
                    return failed(profiler, a, b, "stopped");
                }
                long second = run(probe, withFirst ? probe.without() : probe.with(), "probe-" + i + (withFirst ? "-without" : "-with"), owner);
                a.add(withFirst ? second : first);
                b.add(withFirst ? first : second);
            }
        } catch (ProbeFailed e) {
            return failed(profiler, a, b, stop.getAsBoolean() ? "stopped" : e.getMessage());
        }
        return new ProfilerCost(profiler.label(), a, b, 100 * cost(a, b), LIMIT_PCT, null);
    }

    /**
     * 1 - the median over the pairs of with / without: the share of its throughput the probe lost to the sampler; below 0 when
     * it ran faster with it.
     */
    static double cost(List<Long> without, List<Long> with) {
        if (without.isEmpty() || without.size() != with.size()) {
            throw new IllegalArgumentException("pairs: " + without + " without, " + with + " with");
        }
        double[] ratios = new double[without.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = (double) with.get(i) / without.get(i);
        }
        Arrays.sort(ratios);
        int mid = ratios.length / 2;
        double median = ratios.length % 2 == 1 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
        return 1 - median;
    }

    /**
     * The targets' flags with no sampler: no agent, and JFR's recording with its method sampling off (as under async-profiler),
     * so that with and without differ by the sampler alone.
     */
    static List<String> withoutSampler(List<String> flags) {
        List<String> out = new ArrayList<>();
        for (String f : flags) {
            if (f.startsWith("-agentpath:") || f.startsWith("-agentlib:")) {
                continue;
            }
            boolean jfr = f.startsWith("-XX:StartFlightRecording") && !f.contains("method-profiling=off");
            out.add(jfr ? f + (f.equals("-XX:StartFlightRecording") ? ":" : ",") + "method-profiling=off" : f);
        }
        return out;
    }

    /**
     * The run's one line about it. Over the limit it names what JFR, the default, cost the same probe ({@code jfr}, null when
     * not measured).
     */
    public static String line(ProfilerCost cost, ProfilerCost jfr) {
        String name = Profiler.describe(cost.profiler());
        if (cost.costPct() == null) {
            return name + "'s cost not measured: " + cost.note() + " (the run goes on; docs/telemetry.md)";
        }
        double[] pairs = cost.pairPcts();
        String each = pairs.length == 0 ? "" : pct(pairs[0]).equals(pct(pairs[pairs.length - 1])) ? ", each " + pct(pairs[0])
                : ", each " + pct(pairs[0]) + " to " + pct(pairs[pairs.length - 1]);
        String figure = name + " cost the probe " + pct(cost.costPct()) + " of its throughput on this host (median of "
                + cost.withOpsPerS().size() + " pairs" + each + "; limit " + pct(cost.limitPct());
        if (!cost.over()) {
            return figure + (cost.costPct() > cost.limitPct() ? ": not every pair past it, the host's own noise between pairs may be all of it)" : ")");
        }
        String other = jfr == null ? "" : jfr.costPct() == null ? "; JFR (the default) not measured: " + jfr.note()
                : "; JFR (the default) cost it " + pct(jfr.costPct()) + " here";
        return figure + "): its figures are not the apps' own speed" + other + " (docs/telemetry.md)";
    }

    private static String pct(double value) {
        return String.format(Locale.ROOT, Math.abs(value) < 10 ? "%.1f%%" : "%.0f%%", value);
    }

    private static ProfilerCost failed(Profiler profiler, List<Long> a, List<Long> b, String why) {
        return new ProfilerCost(profiler.label(), a, b, null, LIMIT_PCT, why);
    }

    /** @return the probe's operations per second */
    private static long run(Probe probe, List<String> flags, String name, LabProcesses owner) throws ProbeFailed {
        List<String> cmd = new ArrayList<>(probe.prefix());
        cmd.add(probe.jdk().java().toString());
        cmd.addAll(flags);
        cmd.addAll(List.of("-cp", classPath(), CostProbe.class.getName(), Integer.toString(THREADS), Long.toString(WARM_MS), Long.toString(MEASURED_MS)));
        ManagedProcess p;
        try {
            p = ManagedProcess.start(owner, "profiler-cost " + name, cmd, probe.dir().resolve(name + ".log"));
        } catch (RuntimeException e) { // LabException, or the lab's launcher gone with the lab
            throw new ProbeFailed("cannot start " + name + ": " + e.getMessage());
        }
        try {
            p.onExit().get(TIMEOUT_S, TimeUnit.SECONDS);
            if (p.exitValue() != 0) {
                String last = String.join(" | ", p.logTail(3).strip().lines().toList());
                throw new ProbeFailed(name + " exited (" + p.exitDescription() + "): " + (last.length() > 300 ? last.substring(0, 300) + "..." : last)
                        + " (" + p.log() + ")");
            }
            return p.logLines().stream().filter(l -> l.matches(CostProbe.OUTPUT + "[1-9][0-9]{0,17}")).map(l -> Long.parseLong(l.substring(CostProbe.OUTPUT.length())))
                    .findFirst().orElseThrow(() -> new ProbeFailed(name + " printed no operations (" + p.log() + ")"));
        } catch (TimeoutException e) {
            throw new ProbeFailed(name + " did not end within " + TIMEOUT_S + " s (" + p.log() + ")");
        } catch (ExecutionException e) {
            throw new ProbeFailed(name + ": " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProbeFailed("interrupted");
        } finally {
            p.close();
        }
    }

    /** Where this class came from, the lab's jar (its classes directory in a test): the probe needs nothing else. */
    private static String classPath() throws ProbeFailed {
        try {
            return Path.of(CostProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            throw new ProbeFailed("cannot find the lab's classes for the probe: " + e);
        }
    }

    private static final class ProbeFailed extends Exception {
        ProbeFailed(String message) {
            super(message, null, false, false);
        }
    }
}
