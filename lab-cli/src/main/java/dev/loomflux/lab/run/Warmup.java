package dev.loomflux.lab.run;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
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

    private Warmup() {
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
