package dev.loomflux.lab.steady;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * Whether a measured window moved while it was measured: the last third of its seconds against the
 * first third, for throughput and median latency. A change counts when it is larger than the
 * tolerance and the two thirds differ by a Mann-Whitney U test (p < 0.05). The canary's change over
 * the same thirds says whether the machine's CPU speed moved with it.
 *
 * <p>And whether the window is the state the warmup called steady: the whole window against the
 * warmup's last {@link #TAIL_SECONDS} s, the seconds the steady-state rule judged. One webflux JVM
 * was steady at 2,000-2,500 requests/s and then measured 1,000-1,200 for all its 15 s: flat, so the
 * thirds saw nothing, yet not the steady state the result claimed. The tolerance is wider than the
 * thirds' (the machine's 10 s blocks vary by 15%).
 *
 * @param drifting         throughput or median latency moved beyond its tolerance, within the window or from the warmup's end
 * @param rpsChangePct     last third's mean throughput against the first third's
 * @param p50ChangePct     the same for the median latency
 * @param machineChangePct the same for the canary's speed; null without canary readings
 * @param fromWarmupPct    the window's mean throughput against the warmup's last seconds; NaN without them
 * @param note             one line for reports when drifting, else null
 */
public record Drift(boolean drifting, double rpsChangePct, double p50ChangePct, Double machineChangePct, double fromWarmupPct, String note) {
    public static final double MAX_RPS_PCT = 10;
    public static final double MAX_P50_PCT = 20;
    public static final double MAX_STEP_RPS_PCT = 20;
    public static final double MAX_STEP_P50_PCT = 30;
    public static final int TAIL_SECONDS = 10;
    static final int MIN_SECONDS = 6;

    public static Drift of(List<Point> measured) {
        return of(measured, List.of());
    }

    /** @param warmup the warmup's seconds before the window (its last {@link #TAIL_SECONDS} are used); empty when there was none */
    public static Drift of(List<Point> measured, List<Point> warmup) {
        int third = measured.size() / 3;
        if (measured.size() < MIN_SECONDS) {
            return new Drift(false, Double.NaN, Double.NaN, null, Double.NaN, null);
        }
        List<Point> first = measured.subList(0, third);
        List<Point> last = measured.subList(measured.size() - third, measured.size());
        double rps = change(first, last, Point::rps);
        double p50 = change(first, last, Point::p50Ms);
        boolean canary = measured.stream().allMatch(p -> p.canaryUs() != null);
        // More canary time is a slower machine: the speed change is the inverse ratio.
        Double machine = canary ? 100 * (mean(first, Point::canaryUs) / mean(last, Point::canaryUs) - 1) : null;
        List<String> moved = new ArrayList<>();
        if (Math.abs(rps) > MAX_RPS_PCT && differ(first, last, Point::rps)) {
            moved.add(String.format(Locale.ROOT, "throughput %+.0f%%", rps));
        }
        if (Math.abs(p50) > MAX_P50_PCT && differ(first, last, Point::p50Ms)) {
            moved.add(String.format(Locale.ROOT, "median latency %+.0f%%", p50));
        }
        List<Point> tail = warmup.subList(Math.max(0, warmup.size() - TAIL_SECONDS), warmup.size());
        double fromWarmup = tail.size() < MIN_SECONDS ? Double.NaN : change(tail, measured, Point::rps);
        List<String> stepped = new ArrayList<>();
        if (Double.isFinite(fromWarmup) && Math.abs(fromWarmup) > MAX_STEP_RPS_PCT && differ(tail, measured, Point::rps)) {
            stepped.add(String.format(Locale.ROOT, "throughput %+.0f%%", fromWarmup));
        }
        double p50FromWarmup = tail.size() < MIN_SECONDS ? Double.NaN : change(tail, measured, Point::p50Ms);
        if (Double.isFinite(p50FromWarmup) && Math.abs(p50FromWarmup) > MAX_STEP_P50_PCT && differ(tail, measured, Point::p50Ms)) {
            stepped.add(String.format(Locale.ROOT, "median latency %+.0f%%", p50FromWarmup));
        }
        if (moved.isEmpty() && stepped.isEmpty()) {
            return new Drift(false, rps, p50, machine, fromWarmup, null);
        }
        List<String> notes = new ArrayList<>();
        if (!moved.isEmpty()) {
            notes.add("drifted while measured (last third vs first: " + String.join(", ", moved) + ")");
        }
        if (!stepped.isEmpty()) {
            notes.add("changed from the steady warmup to the measurement (the window vs the warmup's last " + tail.size() + " s: "
                    + String.join(", ", stepped) + ")");
        }
        String note = String.join("; ", notes)
                + (machine == null ? "" : String.format(Locale.ROOT, "; the machine's CPU speed changed %+.0f%% meanwhile", machine));
        return new Drift(true, rps, p50, machine, fromWarmup, note);
    }

    private static double change(List<Point> first, List<Point> last, ToDoubleFunction<Point> f) {
        double a = mean(first, f);
        return a == 0 || !Double.isFinite(a) ? 0 : (mean(last, f) - a) / a * 100;
    }

    private static double mean(List<Point> points, ToDoubleFunction<Point> f) {
        double[] v = values(points, f);
        return v.length == 0 ? Double.NaN : StatUtils.mean(v);
    }

    private static boolean differ(List<Point> first, List<Point> last, ToDoubleFunction<Point> f) {
        double[] a = values(first, f);
        double[] b = values(last, f);
        return a.length > 0 && b.length > 0 && new MannWhitneyUTest().mannWhitneyUTest(a, b) < SteadyRule.ALPHA;
    }

    private static double[] values(List<Point> points, ToDoubleFunction<Point> f) {
        return points.stream().mapToDouble(f).filter(Double::isFinite).toArray();
    }
}
