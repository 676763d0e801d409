package dev.loomflux.lab.run;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.process.Reaper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Unrecorded load before the measured run, in 5 s windows at the profile's own concurrency (or
 * rate), until two windows in a row agree within 10% or the warmup budget is spent. A cold JIT
 * made WebFlux look 3x slower here than once warm.
 */
public final class Warmup {
    static final Duration WINDOW = Duration.ofSeconds(5);
    static final double STABLE_WITHIN = 0.10;

    public record Outcome(List<Double> windowsRps, boolean stable, long millis) {
    }

    private Warmup() {
    }

    public static Outcome run(LoadSpec measured, Duration budget, SecondListener listener) {
        List<Double> windows = new ArrayList<>();
        long t0 = System.nanoTime();
        if (budget.isZero()) {
            return new Outcome(windows, false, 0);
        }
        boolean stable = false;
        while (!Reaper.stopping()) {
            long left = budget.toMillis() - (System.nanoTime() - t0) / 1_000_000;
            if (left < 1000) {
                break;
            }
            Duration window = Duration.ofMillis(Math.min(WINDOW.toMillis(), left));
            Measurement m = LoadDriver.run(new LoadSpec(measured.base(), measured.path(), profile(measured.profile(), window),
                    measured.threads(), measured.requestTimeout()), listener);
            windows.add(m.responses() / Math.max(0.001, m.elapsed().toMillis() / 1000.0));
            int n = windows.size();
            if (n >= 2 && Math.abs(windows.get(n - 1) - windows.get(n - 2)) <= STABLE_WITHIN * Math.max(windows.get(n - 1), windows.get(n - 2))) {
                stable = true;
                break;
            }
        }
        return new Outcome(windows, stable, (System.nanoTime() - t0) / 1_000_000);
    }

    /** The same kind of load as measured: the rate for open models, the peak concurrency for closed ones. */
    static Profile profile(Profile measured, Duration window) {
        if (measured instanceof Profile.Rate) {
            Profile.Rate r = (Profile.Rate) measured;
            return new Profile.Rate(r.rps(), window, r.maxUsers());
        }
        return new Profile.Fixed(Math.max(1, measured.peakUsers()), window);
    }
}
