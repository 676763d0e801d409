package dev.loomflux.lab.run;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.MeasuredWindow;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.process.Reaper;
import dev.loomflux.lab.steady.Point;
import dev.loomflux.lab.steady.SteadyRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Unrecorded load before the measured run, at the profile's own concurrency (or rate), in one
 * continuous run that ends as soon as the {@link SteadyRule} holds or the budget is spent. Its
 * seconds are kept: they show how long each model takes from a cold JIT to steady state.
 */
public final class Warmup {
    /**
     * @param steady          the rule held before the budget ran out
     * @param secondsToSteady seconds of load until the rule held (its window ended there); -1 when it did not
     * @param millis          how long the warmup load ran, the stop included
     * @param check           the rule's verdict that ended the warmup, or its last; null without warmup
     * @param series          every second of the warmup as the rule saw it
     */
    public record Outcome(boolean steady, int secondsToSteady, long millis, SteadyRule.Check check, List<Point> series) {
        public Outcome {
            series = List.copyOf(series);
        }
    }

    /** What the rule needs beyond the driver's own figures, for the second starting at an epoch ms. */
    public interface Signals {
        Point point(long secondStartMs, double rps, double p50Ms);
    }

    /** Warmup and measurement of one continuous load; the measured window began {@code measuredFromMs}. */
    public record Measured(Outcome warmup, Measurement measurement) {
    }

    private Warmup() {
    }

    /** Fixed and rate loads can go on from warmup into the measurement on the same connections. */
    public static boolean continuous(Profile p) {
        return p instanceof Profile.Fixed || p instanceof Profile.Rate;
    }

    /**
     * Warms up and measures in one load, so that no connection is closed in between: the measured
     * window (the profile's duration) starts at the next second after the rule holds, or when the
     * budget is spent. {@code onMeasure} runs when the window is chosen.
     */
    public static Measured runThenMeasure(LoadSpec measured, Duration budget, SteadyRule rule, Signals signals, SecondListener warmupProgress,
                                          SecondListener measureProgress, Runnable onMeasure) {
        Duration measuredFor = duration(measured.profile());
        MeasuredWindow window = new MeasuredWindow((int) Math.ceil(measuredFor.toMillis() / 1000.0));
        List<Point> points = new ArrayList<>();
        SteadyRule.Check[] last = new SteadyRule.Check[1];
        int[] heldAt = {-1};
        long t0 = System.currentTimeMillis();
        Runnable start = () -> {
            if (window.from() < 0) {
                window.startNext();
                onMeasure.run();
            }
        };
        LoadSpec spec = new LoadSpec(measured.base(), measured.path(), profile(measured.profile(), budget.plus(measuredFor).plusSeconds(3)),
                measured.threads(), measured.requestTimeout());
        Measurement m = LoadDriver.run(spec, s -> {
            int from = window.from();
            if (from >= 0 && s.t() >= from) {
                if (s.t() >= from + window.seconds()) {
                    return; // the grace second for late responses, not measured
                }
                measureProgress.second(new Second(s.t() - from, s.requests(), s.responses(), s.rps(), s.p50Ms(), s.p99Ms(), s.errors(), s.users(), s.intended()));
                return;
            }
            warmupProgress.second(s);
            synchronized (points) {
                points.add(signals.point(t0 + s.t() * 1000L, s.rps(), s.p50Ms()));
                if (heldAt[0] < 0 && !budget.isZero()) {
                    last[0] = rule.check(points);
                    if (last[0].steady()) {
                        heldAt[0] = points.size();
                        start.run();
                    }
                }
            }
        }, () -> {
            if (System.currentTimeMillis() - t0 >= budget.toMillis()) {
                start.run();
            }
            return Reaper.stopping();
        }, window);
        synchronized (points) {
            List<Point> warm = points.subList(0, Math.min(points.size(), Math.max(0, window.from())));
            return new Measured(new Outcome(heldAt[0] >= 0, heldAt[0], Math.max(0, window.from()) * 1000L, last[0], warm), m);
        }
    }

    private static Duration duration(Profile p) {
        return p instanceof Profile.Rate r ? r.duration() : ((Profile.Fixed) p).duration();
    }

    public static Outcome run(LoadSpec measured, Duration budget, SteadyRule rule, Signals signals, SecondListener listener) {
        if (budget.isZero() || Reaper.stopping()) {
            return new Outcome(false, -1, 0, null, List.of());
        }
        List<Point> points = new ArrayList<>();
        SteadyRule.Check[] last = new SteadyRule.Check[1];
        int[] heldAt = {-1};
        long t0 = System.currentTimeMillis();
        LoadSpec spec = new LoadSpec(measured.base(), measured.path(), profile(measured.profile(), budget), measured.threads(),
                measured.requestTimeout());
        LoadDriver.run(spec, s -> {
            listener.second(s);
            synchronized (points) {
                points.add(signals.point(t0 + s.t() * 1000L, s.rps(), s.p50Ms()));
                if (heldAt[0] < 0) {
                    last[0] = rule.check(points);
                    heldAt[0] = last[0].steady() ? points.size() : -1;
                }
            }
        }, () -> {
            synchronized (points) {
                return heldAt[0] >= 0;
            }
        });
        synchronized (points) {
            return new Outcome(heldAt[0] >= 0, heldAt[0], System.currentTimeMillis() - t0, last[0], points);
        }
    }

    /** The same kind of load as measured: the rate for open models, the peak concurrency for closed ones. */
    static Profile profile(Profile measured, Duration length) {
        if (measured instanceof Profile.Rate r) {
            return new Profile.Rate(r.rps(), length, r.maxUsers());
        }
        return new Profile.Fixed(Math.max(1, measured.peakUsers()), length);
    }
}
