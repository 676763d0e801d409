package dev.loomflux.lab.driver.hyperfoil;

import dev.loomflux.lab.driver.Collector;
import dev.loomflux.lab.LabException;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.statistics.SessionStatistics;
import io.hyperfoil.api.statistics.Statistics;
import io.hyperfoil.core.impl.SimulationRunner;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Runs one Hyperfoil benchmark in this JVM, without controller or agents.
 *
 * <p>Hyperfoil's own {@code LocalSimulationRunner} hands out statistics only when a phase ends and
 * cannot be stopped early, so this runner drives the public {@link SimulationRunner} API itself:
 * it starts and ends phases on time, reads the statistics every second into a {@link Tally},
 * samples the active sessions ten times a second, and can be cancelled.
 */
final class EmbeddedBenchmark extends SimulationRunner {
    private static final Logger LOG = LogManager.getLogger(EmbeddedBenchmark.class);
    /** The phase loop re-checks at least this often. */
    private static final long POLL_MS = 100;
    /** After a cancel, how long to wait for sessions to stop before returning without them. */
    private static final long CANCEL_GRACE_MS = 1000;

    private final String target;
    private final Collector tally;
    private final BooleanSupplier enough;
    /** Phase names in the order they run, each once the one before has terminated; null: by each phase's start time. */
    private final List<String> sequence;
    /** Hyperfoil's statistics publish-and-reset: one reader at a time keeps each sample whole. */
    private final Object statisticsLock = new Object();
    private final Semaphore wake = new Semaphore(0);
    private volatile boolean cancelled;
    /** Whether the phase at a sequence index may start; asked once per phase, as its turn comes. */
    private final java.util.function.IntPredicate proceed;
    /** The sequence index from which no phase starts: the rounds stopped there. */
    private int cutAt = Integer.MAX_VALUE;
    private boolean interrupted;

    EmbeddedBenchmark(Benchmark benchmark, String target, Collector tally, BooleanSupplier enough) {
        this(benchmark, target, tally, enough, null, i -> true);
    }

    /**
     * @param sequence phases to run one after another, each started once the previous one terminated (its stragglers answered)
     * @param proceed  asked as a phase's turn comes, with its index in the sequence: false starts neither it nor any after it
     */
    EmbeddedBenchmark(Benchmark benchmark, String target, Collector tally, BooleanSupplier enough, List<String> sequence,
                      java.util.function.IntPredicate proceed) {
        super(benchmark, "loomflux", 0, tally::watchdog);
        this.target = target;
        this.tally = tally;
        this.enough = enough;
        this.sequence = sequence == null ? null : List.copyOf(sequence);
        this.proceed = proceed;
    }

    /** Thread-safe. Running sessions stop at their next step; requests in flight are abandoned. */
    void cancel() {
        cancelled = true;
        wake.release();
    }

    /**
     * Opens the connections, runs every phase and collects the statistics. Blocks until the load is
     * over or cancelled.
     *
     * @return when the load ended, epoch ms
     */
    long execute() {
        try {
            init();
            if (!connect()) {
                long now = System.currentTimeMillis();
                tally.start(now);
                return now;
            }
            long start = System.currentTimeMillis();
            tally.start(start);
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "loomflux-driver-statistics");
                t.setDaemon(true);
                return t;
            });
            try {
                sampler.scheduleAtFixedRate(this::sampleUsers, 100, 100, TimeUnit.MILLISECONDS);
                sampler.scheduleAtFixedRate(this::readStatistics, 1000, 1000, TimeUnit.MILLISECONDS);
                runPhases(start);
            } finally {
                sampler.shutdown();
                awaitQuietly(sampler);
            }
            long end = System.currentTimeMillis();
            // Phases drain themselves when they terminate; this picks up any that did not stop in time.
            drainAll();
            for (PhaseInstance phase : instances.values()) {
                if (phase.getError() != null) {
                    throw new LabException("load driver failed in phase " + phase.definition().name() + ": "
                            + rootMessage(phase.getError()), phase.getError());
                }
            }
            return end;
        } finally {
            shutdown();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** False when cancelled before the connections were open. */
    private boolean connect() {
        CompletableFuture<Void> opened = new CompletableFuture<>();
        openConnections(result -> {
            if (result.succeeded()) {
                opened.complete(null);
            } else {
                opened.completeExceptionally(result.cause());
            }
        });
        while (true) {
            try {
                opened.get(POLL_MS, TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                if (cancelled) {
                    return false;
                }
            } catch (InterruptedException e) {
                interrupted = true;
                return false;
            } catch (ExecutionException e) {
                throw new LabException("cannot connect to " + target + ": " + connectFailure(e.getCause()), e.getCause());
            }
        }
    }

    /** Starts phases at their start time and ends them after their duration, until all are done. */
    private void runPhases(long start) {
        long giveUpAt = Long.MAX_VALUE;
        while (true) {
            long now = System.currentTimeMillis();
            if (cancelled && giveUpAt == Long.MAX_VALUE) {
                giveUpAt = now + CANCEL_GRACE_MS;
                for (PhaseInstance phase : instances.values()) {
                    if (phase.status().isStarted() && !phase.status().isTerminated()) {
                        terminatePhase(phase.definition().name());
                    }
                }
            }
            long wakeAt = Math.min(now + POLL_MS, giveUpAt);
            boolean pending = false;
            for (PhaseInstance phase : instances.values()) {
                Phase def = phase.definition();
                switch (phase.status()) {
                    case NOT_STARTED -> {
                        if (!cancelled) {
                            if (sequence != null) {
                                int i = sequence.indexOf(def.name());
                                // Hyperfoil's no-op phase after the iterations (index -1) goes with the last one started.
                                if (cutAt != Integer.MAX_VALUE && (i < 0 || i >= cutAt)) {
                                    continue;
                                }
                                if (nextInSequence(def.name())) {
                                    if (i >= 0 && !proceed.test(i)) {
                                        cutAt = i;
                                        continue;
                                    }
                                    startPhase(def.name());
                                }
                            } else {
                                long startAt = start + Math.max(0, def.startTime());
                                if (startAt <= now) {
                                    startPhase(def.name());
                                } else {
                                    wakeAt = Math.min(wakeAt, startAt);
                                }
                            }
                            pending = true;
                        }
                    }
                    case RUNNING -> {
                        // At-once phases have no duration (-1): they finish at once and end when their users are done.
                        long finishAt = phase.absoluteStartTime() + def.duration();
                        if (finishAt <= now) {
                            finishPhase(def.name());
                        } else {
                            wakeAt = Math.min(wakeAt, finishAt);
                        }
                        pending = true;
                    }
                    case FINISHED, TERMINATING -> {
                        // Terminates once no session is left; for a cancelled phase it also wakes sessions waiting on I/O.
                        tryTerminatePhase(def.name());
                        pending = true;
                    }
                    case TERMINATED -> pending = true; // statistics not collected yet
                    case STATS_COMPLETE -> {
                    }
                }
            }
            if (!pending || now >= giveUpAt) {
                return;
            }
            try {
                wake.tryAcquire(Math.max(1, wakeAt - now), TimeUnit.MILLISECONDS);
                wake.drainPermits();
            } catch (InterruptedException e) {
                interrupted = true;
                cancel();
            }
        }
    }

    /** The phase's turn has come: it is first, or the one before it has terminated and its statistics are in. */
    private boolean nextInSequence(String phase) {
        int i = sequence.indexOf(phase);
        // Hyperfoil adds a no-op phase after a phase's iterations (t0 after t0/000...): it goes last.
        String before = i < 0 ? sequence.get(sequence.size() - 1) : i == 0 ? null : sequence.get(i - 1);
        return before == null || instances.get(before).status() == PhaseInstance.Status.STATS_COMPLETE;
    }

    @Override
    protected CompletableFuture<Void> phaseChanged(Phase phase, PhaseInstance.Status status, boolean sessionLimitExceeded,
                                                   Throwable error) {
        if (sessionLimitExceeded) {
            tally.sessionLimitHit();
        }
        if (status != PhaseInstance.Status.TERMINATED) {
            tally.phase(phase.name(), status, System.currentTimeMillis());
        }
        return super.phaseChanged(phase, status, sessionLimitExceeded, error).thenRun(() -> {
            if (status == PhaseInstance.Status.TERMINATED) {
                // The phase's statistics are closed now, so this read includes its last, partial second. It reads every phase
                // (not only this one) because that read also prunes the terminated phase from the statistics, before the next
                // phase starts: pruned later, with the next phase's statistics beside it (the same target's next block, whose
                // phase shares its statistics), Hyperfoil 0.25's prune overwrote the newer ones, and that block lost most of
                // its requests (FlowIT.backToBackBlocksOfOneTargetCountTheirRequests; docs/flows.md).
                drainAll();
                tally.phase(phase.name(), status, System.currentTimeMillis());
                instances.get(phase.name()).setStatsComplete();
            }
            wake.release();
        });
    }

    private void readStatistics() {
        try {
            drainAll();
            tally.publishLive(System.currentTimeMillis());
            if (!cancelled && enough.getAsBoolean()) {
                cancel();
            }
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again; keep measuring.
            LOG.error("reading Hyperfoil statistics failed", e);
        }
    }

    private void drainAll() {
        synchronized (statisticsLock) {
            visitStatistics(this::drain);
        }
    }

    private void drain(SessionStatistics statistics) {
        for (int i = 0; i < statistics.size(); i++) {
            Phase phase = statistics.phase(i);
            if (phase == null) {
                continue; // a terminated phase, already drained and pruned
            }
            for (Map.Entry<String, Statistics> metric : statistics.stats(i).entrySet()) {
                metric.getValue().visitSnapshots(sample -> tally.add(phase.name(), metric.getKey(), sample));
            }
        }
    }

    /** Users in the middle of an iteration right now; ten samples a second average into {@link Second#users()}. */
    private void sampleUsers() {
        try {
            int[] active = new int[1];
            visitSessions(session -> {
                if (session.isActive()) {
                    active[0]++;
                }
            });
            tally.users(System.currentTimeMillis(), active[0]);
        } catch (RuntimeException e) {
            LOG.error("sampling Hyperfoil sessions failed", e);
        }
    }

    private void awaitQuietly(ScheduledExecutorService executor) {
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        }
    }

    /**
     * Hyperfoil reports only that its pool could not fill ("0 created, 101 failures") and logs the
     * socket errors, so one plain connection attempt finds the reason (refused, timed out, unknown
     * host). If that one succeeds, the target accepted some connections but not the whole pool, and
     * Hyperfoil's message says so.
     */
    private String connectFailure(Throwable hyperfoil) {
        URI uri = URI.create(target);
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
        } catch (IOException e) {
            return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        }
        return rootMessage(hyperfoil);
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
