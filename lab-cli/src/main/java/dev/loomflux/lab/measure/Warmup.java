package dev.loomflux.lab.measure;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.MeasuredWindow;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.steady.Point;
import dev.loomflux.lab.steady.SteadyRule;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * Unrecorded load before the measurement, in two stages. The compile stage runs few users until the
 * JIT goes quiet: at the profile's own concurrency the busy request threads starve the compiler threads
 * of CPU, and the JIT takes minutes where few users let it finish in seconds (docs/steady-state.md,
 * "The compile stage"). Few, but enough to heat the code ({@link #heatUsers}). Then the profile's own concurrency (or rate) runs until the
 * {@link SteadyRule} holds or the budget is spent. For fixed and rate profiles the measurement is the
 * next seconds of the same load; for the others (stages, loops, burst) it is a load of its own. The
 * warmup's seconds are kept: they show how long each model takes from a cold JIT to steady state.
 */
public final class Warmup {
    /**
     * @param steady          the rule held before the budget ran out
     * @param secondsToSteady seconds of load until the rule held (its window ended there); -1 when it did not
     * @param millis          how long the warmup load ran, the stop included
     * @param check           the rule's verdict that ended the warmup, or its last; null without warmup
     * @param series          every second of the warmup as the rule saw it
     * @param compile         its compile stage's part of the series, and the users that ran it
     */
    public record Outcome(boolean steady, int secondsToSteady, long millis, SteadyRule.Check check, List<Point> series, CompileStage compile) {
        /** No warmup. */
        public static final Outcome NONE = new Outcome(false, -1, 0, null, List.of(), CompileStage.NONE);

        public Outcome {
            series = List.copyOf(series);
        }

        /** This stage preceded by the compile stage: one warmup, its seconds counted from the first request. */
        public Outcome after(Outcome compiled) {
            List<Point> all = new ArrayList<>(compiled.series());
            all.addAll(series);
            int before = compiled.series().size();
            return new Outcome(steady, steady ? before + secondsToSteady : -1, compiled.millis() + millis, check, all,
                    new CompileStage(before, compiled.compileUsers()));
        }

        private Outcome heatedBy(int users) {
            return new Outcome(steady, secondsToSteady, millis, check, series, new CompileStage(compile.seconds(), users));
        }

        /** Seconds of the series that were the compile stage's: 0 without one. */
        public int compileSeconds() {
            return compile.seconds();
        }

        /** The users that ran the compile stage: 0 without one. */
        public int compileUsers() {
            return compile.users();
        }
    }

    /**
     * @param seconds how many of the warmup's seconds it took; 0 without one
     * @param users   the users that ran it; 0 without one
     */
    public record CompileStage(int seconds, int users) {
        static final CompileStage NONE = new CompileStage(0, 0);
    }

    /** What the rule needs beyond the driver's own figures, for the second starting at an epoch ms. */
    public interface Signals {
        Point point(long secondStartMs, double rps, double p50Ms);

        /** The target's mean CPU between two moments, 100 = one core busy; null when unknown. */
        default Double cpuPct(long fromMs, long toMs) {
            return null;
        }
    }

    /** Warmup and measurement of one continuous load. */
    public record Measured(Outcome warmup, Measurement measurement) {
    }

    /**
     * What a warmup runs on and is judged by: the driver, the steady-state rule, the signals beside the driver's figures,
     * whether the run was told to stop, and the seconds the JIT must have been quiet to end a stage.
     */
    public record Means(LoadDriver driver, SteadyRule rule, Signals signals, Stop stop, int quietSeconds) {
        public Means(LoadDriver driver, SteadyRule rule, Signals signals, Stop stop) {
            this(driver, rule, signals, stop, QUIET_SECONDS);
        }
    }

    /** Few enough users that the JIT's threads get a fair share of one CPU, enough to keep it busy between responses. */
    static final int COMPILE_USERS = 2;
    /** Seconds the JIT must have been quiet to end the compile stage. */
    static final int QUIET_SECONDS = 5;
    /** The same in the paired design's stages: its lead-in rounds judge the JIT again, at the rounds' load, until quiet rounds in a row. */
    public static final int PAIRED_QUIET_SECONDS = 3;
    /** Seconds at {@link #COMPILE_USERS} users to learn how fast they go and how busy they keep the target. */
    static final int PROBE_SECONDS = 5;
    /**
     * A rate that heats a request path in seconds: C2 compiles a method after some ten thousand
     * invocations, so a path served at a hundred requests per second stays partly interpreted for
     * minutes (docs/steady-state.md, "Enough users to heat the code").
     */
    static final double HEAT_RPS = 1000;
    /** Target CPU, in % of the CPUs it can use, at which {@link #COMPILE_USERS} users keep it busy already: more would crowd the compiler. */
    static final double BUSY_CPU_PCT = 50;
    /** Tomcat's worker threads: beyond them more users only queue. */
    static final int MAX_COMPILE_USERS = 200;

    private Warmup() {
    }

    /** The compile stage's share of a warmup budget: at most half, so that the profile's own load always gets time. */
    public static Duration compileBudget(Duration warmup) {
        return warmup.dividedBy(2);
    }

    /** Fixed and rate loads can go on from warmup into the measurement on the same connections. */
    public static boolean continuous(LoadProfile p) {
        return p instanceof LoadProfile.Fixed || p instanceof LoadProfile.Rate;
    }

    /**
     * The compile stage: a probe of {@link #PROBE_SECONDS} at {@link #COMPILE_USERS} users, then
     * {@link #heatUsers} users until the JIT has been quiet for {@link Means#quietSeconds()}, at most
     * {@code budget} in all; nothing when the profile is that light already. It ends after its first
     * second when the target's JVM publishes no JIT counters.
     */
    /** @param cpus the CPUs the target can use (pinned, or its quota when less): "busy" is half of them */
    public static Outcome compile(Means w, LoadSpec measured, double cpus, Duration budget, SecondListener listener) {
        if (budget.isZero() || w.stop().requested() || (measured.profile() instanceof LoadProfile.Fixed fixed && fixed.users() <= COMPILE_USERS)) {
            return Outcome.NONE;
        }
        Function<List<Point>, SteadyRule.Check> quiet = points -> w.rule().jitQuiet(points, w.quietSeconds());
        int cap = Math.min(MAX_COMPILE_USERS, measured.profile().peakUsers());
        // The probe's load goes on as the stage where its users heat the code already (json's 2 users served 2,000-20,000
        // requests/s): a new load would cost the driver's start, 3 s a JVM (docs/reproducibility.md, "Where a default run's
        // time goes"). It ends at the probe's last second only to start again with more users.
        int[] users = {COMPILE_USERS};
        BiPredicate<List<Point>, Long> reheat = budget.compareTo(Duration.ofSeconds(PROBE_SECONDS).multipliedBy(2)) < 0 ? (points, end) -> false : (points, end) -> {
            if (points.size() != PROBE_SECONDS) {
                return false;
            }
            users[0] = probed(points, end, w.signals(), cpus, cap);
            return users[0] > COMPILE_USERS;
        };
        Outcome probe = follow(w, measured.withProfile(new LoadProfile.Fixed(COMPILE_USERS, budget)), new Follower(quiet, w.signals(), reheat, w.quietSeconds()),
                listener, Long.MAX_VALUE).heatedBy(COMPILE_USERS);
        if (users[0] == COMPILE_USERS || probe.steady() || probe.check() == null || w.stop().requested()) {
            return probe;
        }
        Outcome stage = follow(w, measured.withProfile(new LoadProfile.Fixed(users[0], budget.minusMillis(probe.millis()))),
                new Follower(quiet, w.signals(), (points, end) -> false, w.quietSeconds()), listener, Long.MAX_VALUE);
        Outcome both = stage.after(probe);
        return new Outcome(both.steady(), both.secondsToSteady(), both.millis(), both.check(), both.series(), new CompileStage(0, users[0]));
    }

    /**
     * The users a compile stage needs after a probe's {@code points} at {@link #COMPILE_USERS} ({@link #heatUsers}), the target's CPU
     * read over the points' own last seconds (ending at {@code end}): a driver whose seconds reach the lab late (JMeter's agents
     * batch them) would otherwise have its CPU read over later seconds, a cold JVM's compiler threads in them, and keep 2 users.
     */
    private static int probed(List<Point> points, long end, Signals signals, double cpus, int cap) {
        // The probe's first seconds run interpreted: its last ones tell the rate better.
        List<Point> last = points.subList(Math.max(0, points.size() - 3), points.size());
        double rps = last.stream().mapToDouble(Point::rps).average().orElse(0);
        // The compiler threads are busiest in a cold JVM: their CPU is not the requests'.
        double jitPct = last.stream().filter(p -> p.jitCpuMs() != null).mapToDouble(p -> p.jitCpuMs() / 10).average().orElse(0);
        Double cpu = signals.cpuPct(end - 3000, end);
        // Per CPU the target has: under a 0.5 quota it can never pass 50% of a core, and its probe would look idle.
        return heatUsers(rps, cpu == null ? null : (cpu - jitPct) / Math.max(cpus, 0.01), cap);
    }

    /**
     * Users for the compile stage after a probe at {@link #COMPILE_USERS} made {@code probeRps} and used
     * {@code cpuPct} of the target's CPU outside its JIT compiler threads: as many as bring the rate to {@link #HEAT_RPS}, unless the probe
     * kept the target busy already (CPU-bound work, or fast enough), at most {@code cap}. Waiting users
     * sleep on a downstream and leave the compiler its CPU; busy ones would take it.
     */
    static int heatUsers(double probeRps, Double cpuPct, int cap) {
        if (probeRps >= HEAT_RPS || probeRps <= 0 || (cpuPct != null && cpuPct >= BUSY_CPU_PCT)) {
            return COMPILE_USERS;
        }
        return (int) Math.max(COMPILE_USERS, Math.min(cap, Math.ceil(COMPILE_USERS * HEAT_RPS / probeRps)));
    }

    /**
     * A warmup load of its own, ended as soon as the rule holds; or when the budget is spent, for a load that keeps its
     * own length (a user's JMeter plan), which the budget given as its length does not end.
     */
    public static Outcome run(Means w, LoadSpec measured, Duration budget, SecondListener listener) {
        if (budget.isZero() || w.stop().requested()) {
            return Outcome.NONE;
        }
        return follow(w, measured.withProfile(profile(measured.profile(), budget)), new Follower(w.rule()::check, w.signals(), (points, end) -> false, 0),
                listener, w.driver().keepsOwnLength() ? budget.toMillis() : Long.MAX_VALUE);
    }

    /**
     * The measured load until the JIT has been quiet for {@link Means#quietSeconds()} by the rule's limits, at most {@code budget}
     * (a load that keeps its own length is cut there).
     */
    public static Outcome untilQuiet(Means w, LoadSpec measured, Duration budget, SecondListener listener) {
        if (budget.isZero() || w.stop().requested()) {
            return Outcome.NONE;
        }
        return follow(w, measured.withProfile(profile(measured.profile(), budget)),
                new Follower(points -> w.rule().jitQuiet(points, w.quietSeconds()), w.signals(), (points, end) -> false, w.quietSeconds()), listener,
                budget.toMillis());
    }

    /**
     * A load of its own, ended as soon as {@code f}'s rule decides.
     *
     * @param limitMs the longest it may run, ms
     */
    private static Outcome follow(Means w, LoadSpec spec, Follower f, SecondListener listener, long limitMs) {
        // Budgets count the load's time, from its second 0: a JMeter on agents spends 5-10 s starting, which left a compile
        // stage after its probe 2-3 s of load.
        w.driver().run(spec, f.feeding(listener), () -> f.decided() || f.quietLive(System.currentTimeMillis())
                || System.currentTimeMillis() - f.secondZero >= limitMs);
        return f.outcome(System.currentTimeMillis() - f.secondZero, Integer.MAX_VALUE);
    }

    /**
     * Warms up and measures in one load, so that no connection is closed in between: the measured
     * window (the profile's duration) starts at the next second after the rule holds, or when the
     * budget is spent. {@code onMeasure} runs when the window is chosen.
     */
    public static Measured runThenMeasure(Means w, LoadSpec measured, Duration budget, SecondListener warmupProgress, SecondListener measureProgress,
                                          Runnable onMeasure) {
        Duration measuredFor = measured.profile() instanceof LoadProfile.Rate r ? r.duration() : ((LoadProfile.Fixed) measured.profile()).duration();
        MeasuredWindow window = new MeasuredWindow((int) Math.ceil(measuredFor.toMillis() / 1000.0));
        Runnable start = () -> {
            if (window.from() < 0) {
                window.startNext();
                onMeasure.run();
            }
        };
        Follower f = new Follower(budget.isZero() ? null : w.rule()::check, w.signals(), start);
        SecondListener both = s -> {
            int from = window.from();
            if (from < 0 || s.t() < from) {
                warmupProgress.second(s);
                f.second(s);
            } else if (s.t() < from + window.seconds()) { // the second after the window only collects late responses
                measureProgress.second(new Second(s.t() - from, s.requests(), s.responses(), s.rps(), s.p50Ms(), s.p99Ms(), s.errors(), s.users(), s.intended()));
            }
        };
        Measurement m = w.driver().run(measured.withProfile(profile(measured.profile(), budget.plus(measuredFor).plusSeconds(3))), new SecondListener() {
            @Override
            public void second(Second s) {
                both.second(s);
            }

            @Override
            public void started(long epochMs) {
                f.started(epochMs);
            }
        }, () -> {
            if (System.currentTimeMillis() - f.secondZero >= budget.toMillis()) {
                start.run();
            }
            return w.stop().requested();
        }, window);
        return new Measured(f.outcome(Math.max(0, window.from()) * 1000L, Math.max(0, window.from())), m);
    }

    /** The warmup's seconds as the rule sees them, and the moment it first held. */
    private static final class Follower {
        private final Function<List<Point>, SteadyRule.Check> rule;
        private final Signals signals;
        private final Runnable onSteady;
        private final List<Point> points = new ArrayList<>();
        private SteadyRule.Check last;
        private int heldAt = -1;
        private boolean undecidable;
        private final BiPredicate<List<Point>, Long> endIf;
        private boolean ended;
        /** Seconds of a JIT-only rule to judge on the sampler's clock ({@link #quietLive}); 0 for none. */
        private final int liveSeconds;

        /** @param rule null: no rule is applied (no warmup budget); a rule answering null cannot decide */
        Follower(Function<List<Point>, SteadyRule.Check> rule, Signals signals, Runnable onSteady) {
            this(rule, signals, onSteady, (points, end) -> false, 0);
        }

        /** @param liveSeconds for a rule that reads only the JIT: the seconds to judge as they end ({@link #quietLive}); 0 for none */
        Follower(Function<List<Point>, SteadyRule.Check> rule, Signals signals, BiPredicate<List<Point>, Long> endIf, int liveSeconds) {
            this(rule, signals, () -> { }, endIf, liveSeconds);
        }

        private Follower(Function<List<Point>, SteadyRule.Check> rule, Signals signals, Runnable onSteady, BiPredicate<List<Point>, Long> endIf, int live) {
            this.rule = rule;
            this.signals = signals;
            this.onSteady = onSteady;
            this.endIf = endIf;
            this.liveSeconds = live;
        }

        /**
         * Whether a JIT-only rule holds over the last whole seconds the sampler has read by {@code nowMs}, without waiting 2-3 s
         * for the driver's figures of them (docs/steady-state.md, "Warm at the measured load"); once the load has reported a second.
         */
        synchronized boolean quietLive(long nowMs) {
            if (liveSeconds <= 0 || rule == null || heldAt >= 0 || points.isEmpty()) {
                return false;
            }
            long end = secondZero + Math.floorDiv(nowMs - ResourceSampler.PERIOD.toMillis() - secondZero, 1000L) * 1000L;
            if (end - liveSeconds * 1000L < secondZero) {
                return false;
            }
            List<Point> live = new ArrayList<>();
            for (long t = end - liveSeconds * 1000L; t < end; t += 1000) {
                live.add(signals.point(t, Double.NaN, Double.NaN));
            }
            SteadyRule.Check c = rule.apply(live);
            if (c == null || !c.steady()) {
                return false;
            }
            last = c;
            heldAt = (int) ((end - secondZero) / 1000);
            onSteady.run();
            return true;
        }

        /** Second 0's start, epoch ms: as the driver tells it, else this follower's own start. */
        volatile long secondZero = System.currentTimeMillis();

        void started(long epochMs) {
            secondZero = epochMs;
        }

        /** Each second to {@code also}, then to this follower; the driver's start of second 0 to this follower. */
        SecondListener feeding(SecondListener also) {
            return new SecondListener() {
                @Override
                public void second(Second s) {
                    also.second(s);
                    Follower.this.second(s);
                }

                @Override
                public void started(long epochMs) {
                    Follower.this.started(epochMs);
                }
            };
        }

        synchronized void second(Second s) {
            // The target's JIT, CPU and canary at the second's own time: read at a second counted from the follower's start, a
            // JMeter on agents (its first request 5-10 s in) had its compile stage judged by the target idle before the load.
            points.add(signals.point(secondZero + s.t() * 1000L, s.rps(), s.p50Ms()));
            if (heldAt < 0 && rule != null && !undecidable) {
                SteadyRule.Check c = rule.apply(points);
                undecidable = c == null;
                last = c == null ? last : c;
                if (c != null && c.steady()) {
                    heldAt = points.size();
                    onSteady.run();
                }
            }
            if (!ended && heldAt < 0 && endIf.test(points, secondZero + s.t() * 1000L + 1000L)) {
                ended = true;
            }
        }

        synchronized boolean steady() {
            return heldAt >= 0;
        }

        synchronized boolean decided() {
            return heldAt >= 0 || undecidable || ended;
        }

        /** @param seconds the warmup's seconds, the measured ones excluded */
        synchronized Outcome outcome(long millis, int seconds) {
            return new Outcome(heldAt >= 0, heldAt, millis, last, points.subList(0, Math.min(points.size(), seconds)), CompileStage.NONE);
        }
    }

    /** The same kind of load as measured: the rate for open models, the peak concurrency (and its think time) for closed ones. */
    static LoadProfile profile(LoadProfile measured, Duration length) {
        if (measured instanceof LoadProfile.Rate r) {
            return new LoadProfile.Rate(r.rps(), length, r.maxInFlight());
        }
        return new LoadProfile.Fixed(Math.max(1, measured.peakUsers()), length, measured.think());
    }
}
