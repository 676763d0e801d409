package dev.loomflux.lab.steady;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * When a target under load has stopped changing: over the last {@code windowSeconds} seconds the
 * JIT has gone quiet, throughput and median latency show no significant trend or shift larger than
 * the tolerance, and throughput does not swing wildly; and that held for the {@code confirmSeconds}
 * windows ending in the last seconds too, because a window tested every second would sooner or
 * later let a slow ramp through by chance. 20 s, because with this machine's 5-15% second-to-second
 * noise a 10 s window let a 16%-per-10-s ramp through. docs/steady-state.md gives the figures these limits come from.
 *
 * <p>The JIT signal carries the most weight: on one CPU, Tomcat's 50 busy workers starve the C2
 * compiler for over a minute while throughput creeps up too slowly for any 10 s trend test to see.
 * Without it (a JVM run with -XX:-UsePerfData, or not a HotSpot JVM) the window is doubled instead.
 *
 * @param windowSeconds      seconds the rule looks back
 * @param confirmSeconds     consecutive windows (one per second) that must all pass
 * @param maxTrendPct        largest significant throughput change over the window
 * @param maxLatencyTrendPct largest significant change of the median latency over the window
 * @param maxCvPct           largest coefficient of variation of per-second throughput
 * @param maxJitPct          largest share of the window the JIT may spend compiling (finished compilations)
 * @param maxJitCpuPct       largest share of one CPU the compiler threads may use over the window
 * @param maxMachineTrendPct largest significant change of the canary's speed (the machine, not the target)
 */
public record SteadyRule(int windowSeconds, int confirmSeconds, double maxTrendPct, double maxLatencyTrendPct, double maxCvPct,
                         double maxJitPct, double maxJitCpuPct, double maxMachineTrendPct) {
    public static final SteadyRule DEFAULT = new SteadyRule(20, 3, 10, 20, 20, 5, 2, 10);
    static final double ALPHA = 0.05;
    static final int WINDOW_WITHOUT_JIT = 2;

    /** The rule's verdict on the newest window, with the figures it was drawn from. */
    public record Check(boolean steady, List<String> reasons, int window, double rpsChangePct, double rpsTrendP,
                        double rpsCvPct, double p50ChangePct, Double jitPct, Double jitCpuPct, Double machineChangePct) {
        public Check {
            reasons = List.copyOf(reasons);
        }

        public String describe() {
            return steady ? "steady" : String.join("; ", reasons);
        }
    }

    /** Applies the rule to the newest seconds of {@code series}; too few seconds are "not steady yet". */
    public Check check(List<Point> series) {
        Objects.requireNonNull(series, "series");
        boolean jitKnown = !series.isEmpty() && series.stream().skip(Math.max(0, series.size() - windowSeconds)).allMatch(p -> p.jitMs() != null);
        int window = jitKnown ? windowSeconds : windowSeconds * WINDOW_WITHOUT_JIT;
        int needed = window + confirmSeconds - 1;
        if (series.size() < needed) {
            return new Check(false, List.of("only " + series.size() + " s of load, the rule needs " + needed + " s"), window,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, null, null);
        }
        Check newest = window(series, window);
        for (int back = 1; back < confirmSeconds && newest.steady(); back++) {
            Check earlier = window(series.subList(0, series.size() - back), window);
            if (!earlier.steady()) {
                List<String> reasons = new ArrayList<>(List.of("steady for only " + back + " of " + confirmSeconds + " s"));
                reasons.addAll(earlier.reasons());
                return new Check(false, reasons, window, newest.rpsChangePct(), newest.rpsTrendP(), newest.rpsCvPct(),
                        newest.p50ChangePct(), newest.jitPct(), newest.jitCpuPct(), newest.machineChangePct());
            }
        }
        return newest;
    }

    /** The window of {@code window} seconds ending at the end of {@code series}. */
    private Check window(List<Point> series, int window) {
        List<String> reasons = new ArrayList<>();
        List<Point> w = series.subList(series.size() - window, series.size());
        boolean jitKnown = window == windowSeconds && w.stream().allMatch(p -> p.jitMs() != null);
        double[] rps = w.stream().mapToDouble(Point::rps).toArray();
        double[] p50 = w.stream().mapToDouble(Point::p50Ms).filter(Double::isFinite).toArray();
        Trend rpsTrend = Trend.of(rps);
        double mean = StatUtils.mean(rps);
        double cv = mean == 0 ? 0 : Math.sqrt(StatUtils.populationVariance(rps)) / mean * 100;
        Trend p50Trend = Trend.of(p50);
        Double jitPct = jitKnown ? w.stream().mapToDouble(Point::jitMs).sum() / (window * 10.0) : null;
        Double jitCpuPct = w.stream().allMatch(p -> p.jitCpuMs() != null) ? w.stream().mapToDouble(Point::jitCpuMs).sum() / (window * 10.0) : null;
        double[] canary = w.stream().filter(p -> p.canaryUs() != null).mapToDouble(Point::canaryUs).toArray();
        // Canary time up = machine slower; report it as a change of speed.
        Trend machine = canary.length == window ? Trend.of(canary) : null;
        Double machineChange = machine == null ? null : -machine.changePct();

        if (mean == 0) {
            reasons.add("no responses");
        }
        reasons.addAll(jitReasons(jitPct, jitCpuPct));
        if (rpsTrend.exceeds(maxTrendPct, ALPHA)) {
            reasons.add(fmt("throughput trend %+.0f%% over %d s (p = %.3f, limit %.0f%%)", rpsTrend.changePct(), window, rpsTrend.p(), maxTrendPct));
        } else if (shifted(rps, maxTrendPct)) {
            reasons.add(fmt("throughput shifted %+.0f%% between the halves of %d s (limit %.0f%%)", halvesPct(rps), window, maxTrendPct));
        }
        if (p50Trend.exceeds(maxLatencyTrendPct, ALPHA)) {
            reasons.add(fmt("median latency trend %+.0f%% over %d s (p = %.3f, limit %.0f%%)", p50Trend.changePct(), window, p50Trend.p(), maxLatencyTrendPct));
        } else if (shifted(p50, maxLatencyTrendPct)) {
            reasons.add(fmt("median latency shifted %+.0f%% between the halves of %d s (limit %.0f%%)", halvesPct(p50), window, maxLatencyTrendPct));
        }
        if (cv > maxCvPct) {
            reasons.add(fmt("throughput varies %.0f%% second to second (limit %.0f%%)", cv, maxCvPct));
        }
        if (machine != null && machine.exceeds(maxMachineTrendPct, ALPHA)) {
            reasons.add(fmt("the machine's CPU speed changed %+.0f%% over %d s (canary)", machineChange, window));
        }
        return new Check(reasons.isEmpty(), reasons, window, rpsTrend.changePct(), rpsTrend.p(), cv, p50Trend.changePct(), jitPct, jitCpuPct,
                machineChange);
    }

    /**
     * Whether the JIT alone has gone quiet over the last {@code seconds}: the end of the warmup's
     * compile stage. Null when the target's JVM publishes no JIT counters, so nobody can tell.
     */
    public Check jitQuiet(List<Point> series, int seconds) {
        if (series.isEmpty() || series.get(series.size() - 1).jitMs() == null) {
            return null;
        }
        if (series.size() < seconds) {
            return new Check(false, List.of("only " + series.size() + " s of load, " + seconds + " s needed"), seconds,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, null, null);
        }
        List<Point> w = series.subList(series.size() - seconds, series.size());
        double jitPct = w.stream().mapToDouble(p -> p.jitMs() == null ? 0 : p.jitMs()).sum() / (seconds * 10.0);
        Double jitCpuPct = w.stream().allMatch(p -> p.jitCpuMs() != null) ? w.stream().mapToDouble(Point::jitCpuMs).sum() / (seconds * 10.0) : null;
        List<String> reasons = jitReasons(jitPct, jitCpuPct);
        return new Check(reasons.isEmpty(), reasons, seconds, Double.NaN, Double.NaN, Double.NaN, Double.NaN, jitPct, jitCpuPct, null);
    }

    private List<String> jitReasons(Double jitPct, Double jitCpuPct) {
        List<String> reasons = new ArrayList<>();
        if (jitPct != null && jitPct > maxJitPct) {
            reasons.add(fmt("JIT compiling %.0f%% of the time (limit %.0f%%)", jitPct, maxJitPct));
        }
        if (jitCpuPct != null && jitCpuPct > maxJitCpuPct) {
            reasons.add(fmt("JIT compiler threads using %.1f%% of a CPU (limit %.0f%%)", jitCpuPct, maxJitCpuPct));
        }
        return reasons;
    }

    /** A step inside the window, which a trend test sees poorly: the halves differ beyond the tolerance, by rank too. */
    private static boolean shifted(double[] v, double maxPct) {
        if (v.length < 6) {
            return false;
        }
        double[] a = Arrays.copyOfRange(v, 0, v.length / 2);
        double[] b = Arrays.copyOfRange(v, v.length - v.length / 2, v.length);
        return Math.abs(halvesPct(v)) > maxPct && new MannWhitneyUTest().mannWhitneyUTest(a, b) < ALPHA;
    }

    private static double halvesPct(double[] v) {
        double a = StatUtils.mean(v, 0, v.length / 2);
        double b = StatUtils.mean(v, v.length - v.length / 2, v.length / 2);
        return a == 0 ? 0 : (b - a) / a * 100;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
