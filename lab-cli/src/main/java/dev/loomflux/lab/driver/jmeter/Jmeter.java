package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.MeasuredWindow;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.Reconnections;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.driver.RoundsCut;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.driver.Tally;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.core.handlers.TransferSizeRecorder;
import io.hyperfoil.http.statistics.HttpStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The lab's second load driver: Apache JMeter 5.6, the home the build assembles (jmeter/), run
 * non-GUI on the plan {@link JmeterPlan} renders from the same {@link PhasePlan} as Hyperfoil's. Its
 * results file is read while it grows and each request goes into the same per-second statistics the
 * Hyperfoil driver keeps ({@link Tally}), so seconds, windows, steady state and results are counted
 * one way for both; a load of flows is read by step and by flow as Hyperfoil records it ({@link SampleMetrics}).
 *
 * <p>Where it differs from Hyperfoil: every user is a JMeter thread with its own connection; the
 * rate profile's arrivals are each a new thread and connection, and JMeter has no cap on arrivals
 * in flight (maxInFlight is not enforced); latency is in whole milliseconds; seconds are counted from
 * the first request JMeter sent. Interleaved rounds (the paired design) run fixed blocks only, on one local JMeter or on agents.
 *
 * <p>With a plan of the user's own ({@link OwnPlan}) it runs that plan instead of rendering one, pointed at each load's
 * target, and reads its HTTP requests' samples as it reads its own plans'; on one local JMeter, one load at a time.
 */
public final class Jmeter implements LoadDriver {
    private static final String SUFFIX = ".jmx";
    /** How often the results file is read. */
    private static final Duration POLL = Duration.ofMillis(200);

    private final LabProcesses owner;
    private final Path home;
    private final JmeterAgents agents;
    /** The user's plan it runs; null: the lab's own plans. */
    private final OwnPlan own;
    /** Each sampler's part of the last load of the user's plan. */
    private volatile List<String> lastLoadLines = List.of();
    private final Set<ManagedProcess> running = ConcurrentHashMap.newKeySet();
    private final Set<JmeterCluster> clusters = ConcurrentHashMap.newKeySet();

    @Override
    public DriverType type() {
        return new JmeterType();
    }

    /**
     * @param owner stops its JMeter processes if the lab is stopped first
     * @param home  a JMeter home: bin/ApacheJMeter.jar, lib/, lib/ext/
     */
    public Jmeter(LabProcesses owner, Path home) {
        this(owner, home, JmeterAgents.NONE);
    }

    /** @param agents where each load runs: one local JMeter, or a controller here and agents */
    public Jmeter(LabProcesses owner, Path home, JmeterAgents agents) {
        this(owner, home, agents, null);
    }

    /** @param own a plan of the user's own to run, on one local JMeter; null for the lab's plans */
    public Jmeter(LabProcesses owner, Path home, JmeterAgents agents, OwnPlan own) {
        if (own != null && agents.distributed()) {
            throw new IllegalArgumentException("a plan of the user's own runs on one local JMeter");
        }
        this.owner = owner;
        this.home = home;
        this.agents = agents;
        this.own = own;
    }

    @Override
    public List<ProcessHandle> processes() {
        List<ProcessHandle> out = new ArrayList<>(running.stream().flatMap(p -> ProcessHandle.of(p.pid()).stream()).toList());
        clusters.forEach(c -> out.addAll(c.processes()));
        return out;
    }

    @Override
    public Measurement run(LoadSpec spec, SecondListener listener, BooleanSupplier enough, MeasuredWindow window) {
        PhasePlan plan = PhasePlan.of(spec.profile(), 1);
        try (OneLoad load = new OneLoad()) {
            JmeterCluster cluster = load.cluster;
            JmeterReading reading = new JmeterReading(plan, spec.mix(), listener != null ? listener : s -> { }, window, spec.requestTimeout().toMillis(),
                    cluster == null ? List.of() : cluster.addresses());
            if (window != null) {
                window.clock(() -> reading.started < 0 ? 0 : reading.all.elapsed(System.currentTimeMillis()));
            }
            Jtl jtl = new Jtl(load.dir.resolve("out.jtl"), own != null);
            SamplerCounts samplers = own == null ? null : new SamplerCounts();
            ManagedProcess jmeter = load.start(own != null ? own.text() : JmeterPlan.render(spec, plan, "loomflux", load.split()),
                    own == null ? List.of() : OwnPlan.properties(spec));
            while (true) {
                boolean exited = !jmeter.isAlive();
                read(jtl, reading, samplers);
                long now = System.currentTimeMillis();
                reading.publishLive(now);
                if (exited) {
                    break; // the plan ended, or cancel() stopped it
                }
                if (cluster != null) {
                    cluster.checkAlive();
                }
                if (reading.done(window, enough, now)) {
                    break;
                }
                Pause.sleep(POLL);
            }
            long end = System.currentTimeMillis();
            if (cluster != null && jmeter.isAlive()) {
                // Agents on other hosts end their test themselves once told, their users' last requests answered; the controller
                // ends with the last of them. Killed at once, it would leave them running the plan to its end.
                cluster.endLoad();
                jmeter.onExit().copy().completeOnTimeout(null, reading.timeoutMs() + 5_000, java.util.concurrent.TimeUnit.MILLISECONDS).join();
            }
            jmeter.close();
            read(jtl, reading, samplers);
            if (samplers != null) {
                lastLoadLines = samplers.lines(window);
            }
            if (reading.started < 0) {
                throw new LabException("JMeter sent no request (exit " + (jmeter.isAlive() ? "none" : jmeter.exitDescription()) + "); last lines of "
                        + load.log() + ":\n" + tail(load.log()));
            }
            return reading.finish(end, cluster == null ? null : cluster.cpu());
        }
    }

    /**
     * One load on JMeter, for both designs: its temporary folder, its agents (none: one local JMeter) and the JMeter that
     * runs its plan, each known to {@link #processes()} and {@link #cancel()} while it runs. Closed, nothing of it is left.
     */
    private final class OneLoad implements AutoCloseable {
        final Path dir;
        /** The controller's agents; null: one local JMeter. */
        final JmeterCluster cluster;
        private ManagedProcess jmeter;

        OneLoad() {
            try {
                dir = Files.createTempDirectory("loomflux-jmeter");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                cluster = agents.distributed() ? JmeterCluster.start(owner, home, agents, dir) : null;
            } catch (RuntimeException e) {
                deleteQuietly(dir);
                throw e;
            }
            if (cluster != null) {
                clusters.add(cluster);
            }
        }

        /** How a plan shares its users among the agents. */
        JmeterPlan.Split split() {
            return cluster == null ? JmeterPlan.Split.NONE : new JmeterPlan.Split(agents.count(), cluster.clockUrl());
        }

        Path log() {
            return dir.resolve("jmeter.log");
        }

        /** Starts JMeter (the controller, with agents) on {@code plan}, with {@code options} after the controller's own. */
        ManagedProcess start(String plan, List<String> options) {
            try {
                Files.writeString(dir.resolve("plan.jmx"), plan);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<String> all = new ArrayList<>(cluster == null ? List.of() : cluster.controllerArgs());
            all.addAll(options);
            jmeter = JmeterProcess.start(owner, home, dir.resolve("plan.jmx"), dir.resolve("out.jtl"), log(),
                    cluster == null ? List.of() : cluster.controllerJvm(), all);
            running.add(jmeter);
            return jmeter;
        }

        @Override
        public void close() {
            if (jmeter != null) {
                jmeter.close();
                running.remove(jmeter);
            }
            if (cluster != null) {
                clusters.remove(cluster);
                cluster.close();
            }
            deleteQuietly(dir);
        }
    }

    static void deleteQuietly(Path dir) {
        try (var all = Files.walk(dir)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temporary folder left behind is no reason to lose the measurement.
        }
    }

    /** The samples JMeter wrote since the last read, into the load's statistics and, for the user's plan, its samplers' ({@code samplers}; else null). */
    private void read(Jtl jtl, JmeterReading reading, SamplerCounts samplers) {
        List<Jtl.Sample> samples = read(jtl);
        reading.add(samples, System.currentTimeMillis());
        if (samplers != null && reading.started >= 0) {
            samplers.add(samples, reading.started);
        }
    }

    private static List<Jtl.Sample> read(Jtl jtl) {
        try {
            return jtl.next();
        } catch (IOException e) {
            throw new LabException("cannot read JMeter's results: " + e.getMessage(), e);
        }
    }

    /** An empty second of statistics starting at {@code startMs}, with room for bytes on the wire. */
    static StatisticsSnapshot second(long startMs) {
        StatisticsSnapshot n = new StatisticsSnapshot();
        n.histogram.setStartTimeStamp(startMs);
        n.extensions.put(PhasePlan.TRANSFER, new TransferSizeRecorder.Stats());
        return n;
    }

    /**
     * One request: a response of any status is timed, and counted as a reconnection when it closed its connection; below
     * HTTP it is a timeout, a connection error or another failure.
     */
    static void count(StatisticsSnapshot s, Jtl.Sample sample) {
        s.requestCount++;
        TransferSizeRecorder.Stats bytes = (TransferSizeRecorder.Stats) s.extensions.get(PhasePlan.TRANSFER);
        bytes.sent += sample.sentBytes();
        int status = status(sample);
        if (status < 0) {
            String why = sample.code() + " " + sample.failure();
            if (why.contains("SocketTimeoutException") || why.contains("Read timed out")) {
                // Errors counts connection errors net of timeouts, as Hyperfoil reports a timeout as both.
                s.requestTimeouts++;
                s.connectionErrors++;
            } else if (why.contains("ConnectException") || why.contains("Connection refused") || why.contains("NoHttpResponseException")
                    || why.contains("SocketException")) {
                s.connectionErrors++;
            } else {
                s.internalErrors++;
            }
            return;
        }
        s.responseCount++;
        if (sample.closed()) {
            Reconnections.add(s, 1);
        }
        bytes.received += sample.bytes();
        s.histogram.recordValue(Math.max(1, sample.elapsedMs()) * 1_000_000L);
        // HttpStats.get hands out a detached HttpStats when the snapshot has none, which would drop the count.
        HttpStats http = (HttpStats) s.extensions.computeIfAbsent(HttpStats.HTTP, k -> new HttpStats());
        switch (status / 100) {
            case 2 -> http.status_2xx++;
            case 3 -> http.status_3xx++;
            case 4 -> http.status_4xx++;
            case 5 -> http.status_5xx++;
            default -> http.status_other++;
        }
    }

    /** The response's status; -1 for a failure below HTTP, whose code is JMeter's "Non HTTP response code: ...". */
    static int status(Jtl.Sample sample) {
        return sample.code().matches("\\d{3}") ? Integer.parseInt(sample.code()) : -1;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /**
     * The rounds on one local JMeter, or on agents, conducted by the lab ({@link JmeterRounds}): each target's users stay
     * connected through every round and send only in their target's blocks, on every agent in the same block. An agent that
     * dies or goes quiet cuts the rounds ({@link RoundsCut}): the block it was in is void, the blocks before it are kept.
     */
    @Override
    public List<Block> run(Rounds rounds, Rounds.Listener listener) {
        if (own != null) {
            throw new LabException("a plan of the user's own runs in the sequential design: the rounds are the lab's own plan");
        }
        try (OneLoad load = new OneLoad();
             JmeterRounds conductor = new JmeterRounds(rounds, listener, load.cluster == null ? "127.0.0.1" : load.cluster.host(),
                     load.cluster == null ? List.of() : load.cluster.addresses())) {
            JmeterCluster cluster = load.cluster;
            // Agents get the lab's address as a global property (-G), one JMeter as its own (-J).
            ManagedProcess jmeter = load.start(JmeterRoundsPlan.renderRounds(rounds, "loomflux", load.split()),
                    List.of((cluster == null ? "-J" : "-G") + JmeterRoundsPlan.LAB + "=" + conductor.address()));
            Jtl jtl = new Jtl(load.dir.resolve("out.jtl"));
            // A conductor that stopped asking (its script failed, its agent died) would leave the others' users waiting at their gates.
            // Answered at once, a conductor reports its block after the block and its slowest request: a few seconds more is patience.
            long patienceMs = rounds.block().plannedDuration().toMillis() + rounds.requestTimeout().toMillis() + 10_000;
            // Before its first question a conductor is still starting, as long as an agent may take to start: on one busy driver
            // core (the controller and two agents starting beside the lab) the first block waited for an agent over 21 s
            // (docs/scale-out.md, "Paired rounds on agents").
            long startMs = JmeterCluster.AGENT_START.toMillis();
            try {
                while (!conductor.over() && jmeter.isAlive()) {
                    conductor.add(read(jtl));
                    conductor.step(20);
                    JmeterRounds.Quiet quiet = conductor.silent(patienceMs, startMs);
                    if (quiet != null) {
                        throw new RoundsCut(quiet.who() + " went quiet for " + quiet.patienceMs() / 1000 + " s in " + conductor.where() + ": that block is void", conductor.blocks());
                    }
                    if (cluster != null) {
                        try {
                            cluster.checkAlive();
                        } catch (LabException e) {
                            throw new RoundsCut(e.getMessage() + ", in " + conductor.where() + ": that block is void", conductor.blocks());
                        }
                    }
                }
                if (conductor.blocks().isEmpty() && !jmeter.stoppedByLab()) {
                    throw new LabException("JMeter ran no block (" + jmeter.exitDescription() + "); last lines of its log:\n" + tail(load.log()));
                }
                if (conductor.over()) {
                    // Every conductor heard "done" and ends its test; JMeter then ends, and agents the user started stay ready for the next.
                    jmeter.onExit().copy().completeOnTimeout(null, 10, java.util.concurrent.TimeUnit.SECONDS).join();
                }
                return conductor.blocks();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return conductor.blocks();
            } finally {
                // The conductors told "done" before JMeter is stopped, so no agent's users wait at a gate.
                conductor.close();
                jmeter.close();
            }
        }
    }

    @Override
    public void cancel() {
        running.forEach(ManagedProcess::close);
        clusters.forEach(JmeterCluster::close);
    }

    @Override
    public boolean keepsOwnLength() {
        return own != null && own.ownLength();
    }

    @Override
    public List<String> lastLoadLines() {
        return lastLoadLines;
    }

    @Override
    public Plan export(LoadSpec spec, String name) {
        if (own != null) {
            // As the lab ran it: with -Jhost, -Jport, -Jusers and -Jduration, JMeter runs it alone.
            return new Plan(SUFFIX, own.text());
        }
        // Without a clock to read: run by hand, e.g. with -R over agents, the plan is the same load.
        return new Plan(SUFFIX, JmeterPlan.render(spec, PhasePlan.of(spec.profile(), 1), name, new JmeterPlan.Split(agents.count(), null)));
    }

    /** The rounds' plan as JMeter runs it; its conductor needs the lab (JmeterRoundsPlan.LAB), so it does not run alone. */
    @Override
    public Plan export(Rounds rounds, String name) {
        if (own != null) {
            throw new IllegalStateException("a plan of the user's own runs no rounds");
        }
        return new Plan(SUFFIX, JmeterRoundsPlan.renderRounds(rounds, name, new JmeterPlan.Split(agents.count(), null)));
    }
}
