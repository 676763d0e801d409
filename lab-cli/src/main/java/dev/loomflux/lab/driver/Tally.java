package dev.loomflux.lab.driver;

import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.core.handlers.TransferSizeRecorder;
import io.hyperfoil.http.statistics.HttpStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Collects Hyperfoil's statistics by second of the run and turns them into {@link Second} rows and
 * the {@link Measurement}. Fed from the driver's statistics thread and from event loops.
 */
public final class Tally implements Collector {
    private static final Logger LOG = LogManager.getLogger(Tally.class);
    /**
     * A second is handed to the listener this many seconds after it ended: Hyperfoil publishes a
     * second only once a later one has data, and its double-buffered counters may hold part of it
     * back for one more read.
     */
    static final int LIVE_LAG_SECONDS = 2;

    private final PhasePlan plan;
    private final SecondListener listener;
    /** The requests' statistics by second; Hyperfoil's snapshots are reset after publishing, so they are added in. */
    private final TreeMap<Integer, StatisticsSnapshot> seconds = new TreeMap<>();
    /** A load of flows: what its metrics are; null for one request per iteration. */
    private final FlowMetrics flows;
    /** A load of flows: every metric's statistics by second. */
    private final Map<String, TreeMap<Integer, StatisticsSnapshot>> byMetric = new HashMap<>();
    private long longestNanos;
    /** Active-user samples by second: sum and count. */
    private final Map<Integer, double[]> users = new TreeMap<>();
    private long startMillis;
    private int nextLive;
    private boolean sessionLimitHit;
    private int stalls;

    /** null: every second is measured */
    private final MeasuredWindow window;

    private final long timeoutMs;

    public Tally(PhasePlan plan, SecondListener listener, MeasuredWindow window, long timeoutMs) {
        this(plan, listener, window, timeoutMs, null);
    }

    /** @param flows the metrics of a load of flows, which the measurement breaks down by flow and step; null for one request */
    public Tally(PhasePlan plan, SecondListener listener, MeasuredWindow window, long timeoutMs, FlowMetrics flows) {
        this.flows = flows;
        this.timeoutMs = timeoutMs;
        this.plan = plan;
        this.listener = listener;
        this.window = window;
    }

    /** When the load started, epoch ms. */
    synchronized long startMillis() {
        return startMillis;
    }

    /** Milliseconds since the load started. */
    public synchronized long elapsed(long nowMillis) {
        return nowMillis - startMillis;
    }

    @Override
    public void start(long nowMillis) {
        synchronized (this) {
            startMillis = nowMillis;
        }
        listener.started(nowMillis);
    }

    /**
     * One published Hyperfoil sample: 1 s of one phase, counted from that phase's start. It goes to
     * the second of the run in which it begins, but never past the phase's planned last second.
     * Phases start a few ms into a whole second of the run, except in the loops ramp-up, where a
     * request may be filed up to 1 s early.
     */
    @Override
    public synchronized void add(String phase, String metric, StatisticsSnapshot sample) {
        long t = Math.floorDiv(sample.histogram.getStartTimeStamp() - startMillis, 1000L);
        int second = (int) Math.max(0, Math.min(t, plan.lastSecond(phase)));
        if (flows != null) {
            byMetric.computeIfAbsent(metric, k -> new TreeMap<>()).computeIfAbsent(second, k -> new StatisticsSnapshot()).add(sample);
            if (!flows.isRequest(metric)) {
                return;
            }
        }
        seconds.computeIfAbsent(second, k -> new StatisticsSnapshot()).add(sample);
        if (sample.histogram.getTotalCount() > 0) {
            longestNanos = Math.max(longestNanos, sample.histogram.getMaxValue());
        }
    }

    /** Active users at {@code nowMillis}. */
    @Override
    public synchronized void users(long nowMillis, int active) {
        int t = (int) Math.floorDiv(nowMillis - startMillis, 1000L);
        if (t >= 0) {
            double[] sumAndCount = users.computeIfAbsent(t, k -> new double[2]);
            sumAndCount[0] += active;
            sumAndCount[1]++;
        }
    }

    /** Hyperfoil ran out of sessions for the arrivals and queued them. */
    @Override
    public synchronized void sessionLimitHit() {
        sessionLimitHit = true;
    }

    /** Hyperfoil's watchdogs complain through one callback; only a stalled driver matters here. */
    @Override
    public void watchdog(Throwable complaint) {
        String message = String.valueOf(complaint.getMessage());
        if (message.contains("Jitter watchdog")) {
            synchronized (this) {
                stalls++;
            }
        } else {
            // The CPU watchdog fires whenever a core is busy, which on a small machine is always.
            LOG.debug(message);
        }
    }

    /** Hands the seconds that are complete by {@code nowMillis} to the listener. */
    @Override
    public void publishLive(long nowMillis) {
        List<Second> ready = new ArrayList<>();
        synchronized (this) {
            int lastComplete = (int) Math.floorDiv(nowMillis - startMillis, 1000L) - 1 - LIVE_LAG_SECONDS;
            for (; nextLive <= lastComplete && nextLive <= lastSecond(); nextLive++) {
                ready.add(row(nextLive, Long.MAX_VALUE));
            }
        }
        ready.forEach(this::tell);
    }

    /**
     * The final rows and totals of the measured seconds (all of them, or the {@link MeasuredWindow}'s,
     * renumbered from 0); seconds not yet handed to the listener are handed over now.
     */
    public Measurement finish(long endMillis) {
        List<Second> series = new ArrayList<>();
        List<Histogram> intervals = new ArrayList<>();
        List<Second> unpublished = new ArrayList<>();
        StatisticsSnapshot total = new StatisticsSnapshot();
        long elapsedMillis;
        WindowShare share;
        List<FlowMeasurement> flowsMeasured;
        boolean behind;
        int driverStalls;
        synchronized (this) {
            long runMillis = endMillis - startMillis;
            int from = window == null ? 0 : Math.max(0, window.from());
            int last = window == null || window.from() < 0 ? lastSecond() : Math.min(lastSecond(), from + window.seconds() - 1);
            elapsedMillis = Math.min(runMillis, (last + 1) * 1000L) - from * 1000L;
            behind = plan.openModel() && sessionLimitHit;
            for (int t = 0; t <= lastSecond(); t++) {
                Second row = row(t, runMillis);
                if (t >= nextLive) {
                    unpublished.add(row);
                }
                if (t < from || t > last) {
                    continue;
                }
                series.add(new Second(t - from, row.requests(), row.responses(), row.rps(), row.p50Ms(), row.p99Ms(), row.errors(),
                        row.users(), row.intended()));
                StatisticsSnapshot s = seconds.getOrDefault(t, new StatisticsSnapshot());
                total.add(s);
                Histogram h = s.histogram.copy();
                h.setStartTimeStamp(startMillis + t * 1000L);
                h.setEndTimeStamp(Math.min(startMillis + (t + 1) * 1000L, endMillis));
                intervals.add(h);
                if (plan.fullSecond(t, runMillis) && row.requests() < PhasePlan.ON_SCHEDULE * row.intended()) {
                    behind = true;
                }
            }
            TreeMap<Long, StatisticsSnapshot> byMillis = new TreeMap<>();
            seconds.forEach((t, snapshot) -> byMillis.put(startMillis + t * 1000L, snapshot));
            long windowFrom = startMillis + from * 1000L;
            share = WindowShare.of(byMillis, windowFrom, windowFrom + elapsedMillis, Long.MAX_VALUE, timeoutMs);
            flowsMeasured = flows == null ? List.of() : flows.measure(byMillis(byMetric), startMillis + from * 1000L, startMillis + (last + 1) * 1000L,
                    windowFrom, windowFrom + elapsedMillis, Long.MAX_VALUE, timeoutMs, true);
            nextLive = lastSecond() + 1;
            driverStalls = stalls;
        }
        unpublished.forEach(this::tell);
        if (driverStalls > 0) {
            LOG.warn("the load driver stalled {} time(s) for more than 100 ms (its jitter watchdog);"
                    + " latencies may include driver pauses", driverStalls);
        }
        HttpStats http = HttpStats.get(total);
        TransferSizeRecorder.Stats bytes = total.extensions.get(PhasePlan.TRANSFER) instanceof TransferSizeRecorder.Stats b
                ? b : new TransferSizeRecorder.Stats();
        Histogram latency = total.histogram.copy();
        return new Measurement(latency, series, intervals, total.requestCount, total.responseCount, share, Errors.of(total),
                Reconnections.in(total), bytes.sent, bytes.received, Duration.ofMillis(elapsedMillis), behind, http.cacheHits, List.of(), flowsMeasured);
    }

    /** Each metric's seconds keyed by the epoch ms at which they start. */
    private Map<String, NavigableMap<Long, StatisticsSnapshot>> byMillis(Map<String, TreeMap<Integer, StatisticsSnapshot>> bySecond) {
        Map<String, NavigableMap<Long, StatisticsSnapshot>> out = new HashMap<>();
        bySecond.forEach((metric, seconds) -> {
            TreeMap<Long, StatisticsSnapshot> m = new TreeMap<>();
            seconds.forEach((t, s) -> m.put(startMillis + t * 1000L, s));
            out.put(metric, m);
        });
        return out;
    }

    /**
     * Whether a load with a measured window may end now: the window is over and its stragglers answered as far as
     * is known, or the longest a request may take has passed since. Without a window, only {@code enough} ends it.
     * The window's throughput counts every response to a request sent in it, so the load goes on until the
     * window's stragglers are answered (or timed out): cancelled a second after the window, as it once was,
     * mvc-10 over a 200 ms x 2 chain at 100 users (4 s latency) lost 80 of 740 responses, 12% of its throughput.
     * Seconds are published {@link #LIVE_LAG_SECONDS} late, and the responses to them come in up to the longest
     * latency after: until both have passed, a window's last seconds may look settled only because nothing of them
     * is known yet (100 users in lockstep over a 4 s stub lost their last wave, 100 of 800 responses, checking as
     * soon as the window ended).
     */
    public boolean done(MeasuredWindow window, BooleanSupplier enough, long nowMillis) {
        boolean enoughNow = enough.getAsBoolean();
        if (window == null || enoughNow) {
            return enoughNow;
        }
        long elapsed = elapsed(nowMillis);
        long lagMs = (LIVE_LAG_SECONDS + 1) * 1000L;
        return (window.over(elapsed - lagMs - longestLatencyMs()) && settled(window)) || window.over(elapsed - timeoutMs - 2000);
    }

    /** The longest latency published so far, in ms. */
    synchronized long longestLatencyMs() {
        return longestNanos / 1_000_000;
    }

    /** Every request sent in the window's seconds has its response, error or timeout, as far as Hyperfoil has published. */
    synchronized boolean settled(MeasuredWindow w) {
        for (int t = Math.max(0, w.from()); t < w.from() + w.seconds(); t++) {
            StatisticsSnapshot s = seconds.get(t);
            if (s != null && s.requestCount > s.responseCount + s.requestTimeouts + Math.max(0, s.connectionErrors - s.requestTimeouts) + s.internalErrors) {
                return false;
            }
        }
        return true;
    }

    /** The last second in which a request started, or -1. */
    private int lastSecond() {
        return seconds.isEmpty() ? -1 : seconds.lastKey();
    }

    private Second row(int t, long elapsedMillis) {
        StatisticsSnapshot s = seconds.getOrDefault(t, new StatisticsSnapshot());
        double length = Math.min(1000, elapsedMillis - t * 1000L) / 1000.0;
        double[] sumAndCount = users.getOrDefault(t, new double[2]);
        Histogram h = s.histogram;
        boolean anyResponse = h.getTotalCount() > 0;
        return new Second(t, s.requestCount, s.responseCount, length > 0 ? s.responseCount / length : s.responseCount,
                anyResponse ? millis(h.getValueAtPercentile(50)) : Double.NaN,
                anyResponse ? millis(h.getValueAtPercentile(99)) : Double.NaN,
                Errors.of(s).total(),
                sumAndCount[1] == 0 ? 0 : (int) Math.round(sumAndCount[0] / sumAndCount[1]),
                plan.intended(t, elapsedMillis));
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    private void tell(Second s) {
        try {
            listener.second(s);
        } catch (RuntimeException e) {
            // The load goes on; a broken progress display must not end the measurement.
            LOG.warn("second listener failed at t={}", s.t(), e);
        }
    }
}
