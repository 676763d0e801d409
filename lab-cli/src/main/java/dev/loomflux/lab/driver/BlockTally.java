package dev.loomflux.lab.driver;

import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Collects interleaved rounds by block: each block is one Hyperfoil phase iteration, its samples
 * keyed by the second its requests were sent. A block is handed on once its phase terminated,
 * that is after its last straggler was answered (or timed out).
 */
public final class BlockTally implements Collector {
    private static final Logger LOG = LogManager.getLogger(BlockTally.class);

    private static final class State {
        final String target;
        final int round;
        final int position;
        final TreeMap<Long, StatisticsSnapshot> seconds = new TreeMap<>();
        /** A load of flows: every metric's samples by second. */
        final Map<String, TreeMap<Long, StatisticsSnapshot>> byMetric = new HashMap<>();
        long started = -1;
        long finished = -1;

        State(String target, int round, int position) {
            this.target = target;
            this.round = round;
            this.position = position;
        }
    }

    private final Map<String, State> states = new HashMap<>();
    private final List<Block> done = new ArrayList<>();
    private final Rounds.Listener listener;
    private final int rps;

    private final long leadInMs;
    private final long timeoutMs;
    /** The metrics of a load of flows; null for one request per iteration. */
    private final FlowMetrics flows;

    /** @param rps the open model's arrivals per second, 0 for a closed model */
    public BlockTally(Rounds plan, Rounds.Listener listener, int rps) {
        this.flows = plan.mix() == null ? null : new FlowMetrics(plan.mix());
        this.listener = listener;
        this.rps = rps;
        this.leadInMs = plan.leadIn().toMillis();
        this.timeoutMs = plan.requestTimeout().toMillis();
        for (int r = 0; r < plan.order().size(); r++) {
            List<Integer> round = plan.order().get(r);
            for (int p = 0; p < round.size(); p++) {
                states.put(Rounds.phase(round.get(p), r), new State(plan.targets().get(round.get(p)).name(), r, p));
            }
        }
    }

    @Override
    public void start(long nowMillis) {
    }

    @Override
    public synchronized void add(String phase, String metric, StatisticsSnapshot sample) {
        State s = states.get(phase);
        if (s == null) {
            return;
        }
        long second = sample.histogram.getStartTimeStamp();
        if (flows != null) {
            s.byMetric.computeIfAbsent(metric, k -> new TreeMap<>()).computeIfAbsent(second, k -> new StatisticsSnapshot()).add(sample);
            if (!flows.isRequest(metric)) {
                return;
            }
        }
        s.seconds.computeIfAbsent(second, k -> new StatisticsSnapshot()).add(sample);
    }

    @Override
    public void users(long nowMillis, int active) {
    }

    @Override
    public void sessionLimitHit() {
        // An open model's block behind schedule shows in its requests against its intended arrivals.
    }

    @Override
    public void watchdog(Throwable complaint) {
        LOG.debug(complaint.getMessage());
    }

    @Override
    public void publishLive(long nowMillis) {
    }

    @Override
    public void phase(String phase, PhaseInstance.Status status, long nowMillis) {
        Block ended = null;
        State s;
        synchronized (this) {
            s = states.get(phase);
            if (s == null) {
                return;
            }
            if (status == PhaseInstance.Status.RUNNING && s.started < 0) {
                s.started = nowMillis;
            } else if (status.isFinished() && s.finished < 0 && status != PhaseInstance.Status.TERMINATED) {
                s.finished = nowMillis;
            } else if (status == PhaseInstance.Status.TERMINATED && s.started >= 0) {
                ended = block(s, s.finished < 0 ? nowMillis : s.finished);
                done.add(ended);
            }
        }
        try {
            if (status == PhaseInstance.Status.RUNNING) {
                listener.started(s.target, s.round);
            } else if (ended != null) {
                listener.ended(ended);
            }
        } catch (RuntimeException e) {
            // Telemetry and progress must not end the measurement.
            LOG.warn("rounds listener failed for {}", phase, e);
        }
    }

    /**
     * The block's measured part: Hyperfoil's seconds count from the phase's start, so a lead-in of whole
     * seconds is its first samples, and the measured window starts where they end.
     */
    private Block block(State s, long end) {
        StatisticsSnapshot total = new StatisticsSnapshot();
        List<Double> perSecond = new ArrayList<>();
        long from = s.seconds.isEmpty() ? s.started : s.seconds.firstKey() + leadInMs;
        for (Map.Entry<Long, StatisticsSnapshot> e : s.seconds.tailMap(from).entrySet()) {
            total.add(e.getValue());
            double length = Math.min(1000, end - e.getKey()) / 1000.0;
            if (length >= 0.2) { // the block's last few ms would read as a rate of their own
                perSecond.add(e.getValue().responseCount / length);
            }
        }
        long intended = rps == 0 ? -1 : Math.round(rps * (end - from) / 1000.0);
        return new Block(s.target, s.round, s.position, from, end, total.requestCount, total.responseCount,
                WindowShare.of(s.seconds, from, end, end, timeoutMs), Errors.of(total), Reconnections.in(total),
                total.histogram.copy(), perSecond, intended,
                flows == null ? List.of() : flows.measure(s.byMetric, from, Long.MAX_VALUE, from, end, end, timeoutMs, false));
    }

    /** The blocks that ended, in the order they ran. */
    public synchronized List<Block> blocks() {
        return List.copyOf(done);
    }
}
