package dev.loomflux.lab.driver;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A profile as Hyperfoil phases, plus the size of the shared connection pool. Times are relative to
 * the start of the load.
 */
public final class PhasePlan {
    /** Metric name of the one request in every scenario, for every driver's statistics. */
    public static final String METRIC = "request";
    /** Statistics key of the request/response byte counts. */
    public static final String TRANSFER = "transfer";

    /** The phase of the target at {@code index} in interleaved rounds. */
    public static String phaseName(int index) {
        return "t" + index;
    }

    /** Hyperfoil phase models the plan uses. */
    public enum Model { ALWAYS, AT_ONCE, CONSTANT_RATE }

    /**
     * @param users       concurrent users, closed models only (0 for the constant rate)
     * @param maxInFlight the most arrivals in flight, constant rate only (Hyperfoil's maxSessions; 0 for closed models)
     * @param rps         arrivals per second, constant rate only
     * @param durationMs  -1 for at-once phases, which end when their users are done
     * @param requests    requests each user sends before it is done
     */
    public record LoadPhase(String name, Model model, int users, int maxInFlight, int rps, long startMs, long durationMs, int requests) {
        /** Closed interval, so that a phase ending as another starts counts as overlapping it. */
        boolean activeAt(long ms) {
            return startMs <= ms && (durationMs < 0 || ms <= startMs + durationMs);
        }

        /** Hyperfoil runs each user, and each arrival in flight, as a session; it puts a phase's k-th session on event loop k % threads. */
        int sessionsOn(int loop, int threads) {
            int sessions = model == Model.CONSTANT_RATE ? maxInFlight : users;
            return sessions > loop ? (sessions - loop + threads - 1) / threads : 0;
        }
    }

    /** Ramps are cut into slots this long; the per-second series cannot resolve more anyway. */
    static final long RAMP_SLOT_MS = 1000;
    /** Loops start their users over this long, as a JMeter thread group with a 1 s ramp-up. */
    public static final long LOOPS_RAMP_UP_MS = 1000;
    /** At most this many start times in the loops ramp-up: one per 20 ms. */
    static final int LOOPS_MAX_SLOTS = 50;
    /** Behind schedule when a full second started fewer than this share of its arrivals. */
    public static final double ON_SCHEDULE = 0.95;

    private final LoadProfile profile;
    private final List<LoadPhase> phases;
    private final int connections;

    private PhasePlan(LoadProfile profile, List<LoadPhase> phases, int threads) {
        if (phases.isEmpty()) {
            throw new UsageException("profile never reaches one user: nothing to send");
        }
        this.profile = profile;
        this.phases = List.copyOf(phases);
        this.connections = connections(this.phases, threads);
    }

    public static PhasePlan of(LoadProfile profile, int threads) {
        List<LoadPhase> phases;
        if (profile instanceof LoadProfile.Fixed f) {
            phases = List.of(new LoadPhase("fixed", Model.ALWAYS, f.users(), 0, 0, 0, f.duration().toMillis(), 1));
        } else if (profile instanceof LoadProfile.Stages s) {
            phases = ramp(s.stages());
        } else if (profile instanceof LoadProfile.Loops l) {
            phases = loops(l.users(), l.requests(), threads);
        } else if (profile instanceof LoadProfile.Burst b) {
            phases = List.of(new LoadPhase("burst", Model.AT_ONCE, b.users(), 0, 0, 0, -1, b.requests()));
        } else if (profile instanceof LoadProfile.Rate r) {
            // Metronome arrivals (variance off), as wrk2: Poisson arrivals would make seconds differ by chance.
            phases = List.of(new LoadPhase("rate", Model.CONSTANT_RATE, 0, r.maxInFlight(), r.rps(), 0, r.duration().toMillis(), 1));
        } else {
            throw new IllegalArgumentException("unknown profile " + profile);
        }
        return new PhasePlan(profile, phases, threads);
    }

    public List<LoadPhase> phases() {
        return phases;
    }

    /**
     * The last second of the load a phase was planned to run in; unbounded for at-once phases.
     * Hyperfoil ends a phase a few ms after its planned end (the end is checked by the runner,
     * statistics count from a slightly earlier start), and requests started in those ms would form
     * a stray sliver of a second.
     */
    int lastSecond(String phase) {
        return phases.stream().filter(p -> p.name().equals(phase) && p.durationMs() >= 0).findFirst()
                .map(p -> (int) ((p.startMs() + p.durationMs() - 1) / 1000)).orElse(Integer.MAX_VALUE);
    }

    /** Connections in Hyperfoil's shared pool. */
    public int connections() {
        return connections;
    }

    /** Each user's pause after a response. */
    public Think think() {
        return profile.think();
    }

    /** The loops profile, whose users Hyperfoil starts in slots over {@link #LOOPS_RAMP_UP_MS}. */
    public boolean loops() {
        return profile instanceof LoadProfile.Loops;
    }

    boolean openModel() {
        return profile instanceof LoadProfile.Rate;
    }

    /**
     * Arrivals the rate schedule asks for in second {@code t}, counting only the load's first
     * {@code untilMs}; -1 for closed models. Hyperfoil's metronome schedules arrival k at
     * k * 1000 / rps ms, so the arrivals before x ms number ceil(x * rps / 1000).
     */
    long intended(int t, long untilMs) {
        if (!(profile instanceof LoadProfile.Rate r)) {
            return -1;
        }
        long from = t * 1000L;
        long to = Math.min(Math.min(from + 1000, r.duration().toMillis()), untilMs);
        return to <= from ? 0 : arrivalsBefore(to, r.rps()) - arrivalsBefore(from, r.rps());
    }

    /** Whether second {@code t} lies entirely inside the schedule and the first {@code untilMs}. */
    boolean fullSecond(int t, long untilMs) {
        return profile instanceof LoadProfile.Rate r && (t + 1) * 1000L <= Math.min(r.duration().toMillis(), untilMs);
    }

    private static long arrivalsBefore(long ms, int rps) {
        return -Math.floorDiv(-ms * rps, 1000);
    }

    /**
     * A closed-model ramp as k6 runs it, from layered {@code always} phases: the ramp is sampled at
     * the middle of each slot, the j-th user is alive in every slot whose sample is >= j, and users
     * alive over the same slots form one phase. A phase that ends lets its users finish the request
     * in flight, like k6's graceful ramp-down.
     */
    static List<LoadPhase> ramp(List<LoadProfile.Stage> stages) {
        long total = stages.stream().mapToLong(s -> s.duration().toMillis()).sum();
        int slots = (int) ((total + RAMP_SLOT_MS - 1) / RAMP_SLOT_MS);
        int[] users = new int[slots];
        int peak = 0;
        for (int k = 0; k < slots; k++) {
            double middle = (slotStart(k) + Math.min(slotStart(k + 1), total)) / 2.0;
            users[k] = (int) Math.round(usersAt(stages, middle));
            peak = Math.max(peak, users[k]);
        }
        Map<List<Integer>, Integer> usersBySlots = new LinkedHashMap<>();
        for (int j = 1; j <= peak; j++) {
            for (int k = 0; k < slots; k++) {
                if (users[k] >= j) {
                    int first = k;
                    while (k < slots && users[k] >= j) {
                        k++;
                    }
                    usersBySlots.merge(List.of(first, k), 1, Integer::sum);
                }
            }
        }
        List<LoadPhase> phases = new ArrayList<>();
        usersBySlots.forEach((range, count) -> {
            long start = slotStart(range.get(0));
            long end = Math.min(slotStart(range.get(1)), total);
            phases.add(new LoadPhase("ramp-" + range.get(0) + "-" + range.get(1), Model.ALWAYS, count, 0, 0, start, end - start, 1));
        });
        phases.sort(Comparator.comparingLong(LoadPhase::startMs).thenComparingLong(LoadPhase::durationMs));
        return phases;
    }

    private static long slotStart(int k) {
        return k * RAMP_SLOT_MS;
    }

    /** Users at {@code ms} on the k6 curve: each stage ramps linearly from the previous target, the first from 0. */
    static double usersAt(List<LoadProfile.Stage> stages, double ms) {
        double from = 0;
        double stageStart = 0;
        for (LoadProfile.Stage s : stages) {
            double length = s.duration().toMillis();
            if (ms <= stageStart + length) {
                return from + (s.users() - from) * (ms - stageStart) / length;
            }
            stageStart += length;
            from = s.users();
        }
        return from;
    }

    /**
     * Users start evenly over the ramp-up in slots. A slot holds at least {@code threads} users
     * when it can: Hyperfoil places a phase's sessions on event loops from the first loop on, so
     * one-user slots would all land on the first loop.
     */
    public static List<LoadPhase> loops(int users, int requests, int threads) {
        int slots = Math.min(LOOPS_MAX_SLOTS, Math.max(1, users / threads));
        List<LoadPhase> phases = new ArrayList<>();
        for (int j = 0; j < slots; j++) {
            int count = (int) ((long) (j + 1) * users / slots - (long) j * users / slots);
            long start = j * LOOPS_RAMP_UP_MS / slots;
            phases.add(new LoadPhase("loops-" + j, Model.AT_ONCE, count, 0, 0, start, -1, requests));
        }
        return phases;
    }

    /**
     * As wrk -c or ab -c: as many connections as users at the peak. Hyperfoil splits the pool
     * evenly over the event loops (the first loops get the remainder) and a session only uses its
     * own loop's connections, so with several loops and several phases the pool is raised until
     * every loop has a connection for each of its concurrent sessions; otherwise sessions would
     * queue for connections and that wait would count as latency. Never below one connection per
     * loop, Hyperfoil's own minimum.
     */
    public static int connections(List<LoadPhase> phases, int threads) {
        int[] needed = new int[threads];
        for (LoadPhase at : phases) {
            int[] sessions = new int[threads];
            for (LoadPhase p : phases) {
                if (p.activeAt(at.startMs())) {
                    for (int loop = 0; loop < threads; loop++) {
                        sessions[loop] += p.sessionsOn(loop, threads);
                    }
                }
            }
            for (int loop = 0; loop < threads; loop++) {
                needed[loop] = Math.max(needed[loop], sessions[loop]);
            }
        }
        int pool = Math.max(threads, Arrays.stream(needed).sum());
        while (!covers(pool, needed)) {
            pool++;
        }
        return pool;
    }

    private static boolean covers(int pool, int[] needed) {
        int threads = needed.length;
        for (int loop = 0; loop < threads; loop++) {
            if (pool / threads + (loop < pool % threads ? 1 : 0) < needed[loop]) {
                return false;
            }
        }
        return true;
    }
}
