package dev.loomflux.lab.driver;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.process.ManagedProcess;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.core.handlers.TransferSizeRecorder;
import io.hyperfoil.http.statistics.HttpStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The lab's second load driver: Apache JMeter 5.6, the home the build assembles (jmeter/), run
 * non-GUI on the plan {@link JmeterPlan} renders from the same {@link PhasePlan} as Hyperfoil's. Its
 * results file is read while it grows and each request goes into the same per-second statistics the
 * Hyperfoil driver keeps ({@link Tally}), so seconds, windows, steady state and results are counted
 * one way for both.
 *
 * <p>Where it differs from Hyperfoil: every user is a JMeter thread with its own connection; the
 * rate profile's arrivals are each a new thread and connection, and JMeter has no cap on arrivals
 * in flight (maxUsers is not enforced); latency is in whole milliseconds; seconds are counted from
 * the first request JMeter sent. Interleaved rounds (the paired design) are not supported yet.
 */
public final class Jmeter implements LoadDriver {
    private static final String SUFFIX = ".jmx";
    /** How often the results file is read. */
    private static final Duration POLL = Duration.ofMillis(200);

    private final Path home;
    private final Set<ManagedProcess> running = ConcurrentHashMap.newKeySet();

    @Override
    public String name() {
        return "jmeter";
    }

    /** @param home a JMeter home: bin/ApacheJMeter.jar, lib/, lib/ext/ */
    public Jmeter(Path home) {
        this.home = home;
    }

    @Override
    public List<ProcessHandle> processes() {
        return running.stream().flatMap(p -> ProcessHandle.of(p.pid()).stream()).toList();
    }

    @Override
    public Measurement run(LoadSpec spec, SecondListener listener, BooleanSupplier enough, MeasuredWindow window) {
        PhasePlan plan = PhasePlan.of(spec.profile(), 1);
        Tally tally = new Tally(plan, listener != null ? listener : s -> { }, window, spec.requestTimeout().toMillis());
        long[] started = {-1};
        if (window != null) {
            window.clock(() -> started[0] < 0 ? 0 : tally.elapsed(System.currentTimeMillis()));
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("loomflux-jmeter");
            Files.writeString(dir.resolve("plan.jmx"), JmeterPlan.render(spec, plan, "loomflux"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Jtl jtl = new Jtl(dir.resolve("out.jtl"));
        ManagedProcess jmeter = JmeterProcess.start(home, dir.resolve("plan.jmx"), dir.resolve("out.jtl"), dir.resolve("jmeter.log"));
        running.add(jmeter);
        try {
            while (true) {
                boolean exited = !jmeter.isAlive();
                List<Jtl.Sample> samples = read(jtl);
                if (!samples.isEmpty() && started[0] < 0) {
                    started[0] = samples.stream().mapToLong(Jtl.Sample::startMs).min().orElseThrow();
                    tally.start(started[0]);
                }
                add(tally, samples);
                long now = System.currentTimeMillis();
                if (started[0] >= 0) {
                    tally.publishLive(now);
                }
                if (exited) {
                    break; // the plan ended, or cancel() stopped it
                }
                if (started[0] >= 0 && tally.done(window, enough, now)) {
                    break;
                }
                Pause.sleep(POLL);
            }
            long end = System.currentTimeMillis();
            if (jmeter.isAlive()) {
                jmeter.close();
            }
            add(tally, read(jtl));
            if (started[0] < 0) {
                throw new LabException("JMeter sent no request (exit " + (jmeter.isAlive() ? "none" : jmeter.exitDescription()) + "); last lines of "
                        + dir.resolve("jmeter.log") + ":\n" + tail(dir.resolve("jmeter.log")));
            }
            return tally.finish(end);
        } finally {
            jmeter.close();
            running.remove(jmeter);
            deleteQuietly(dir);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var all = Files.walk(dir)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temporary folder left behind is no reason to lose the measurement.
        }
    }

    private static List<Jtl.Sample> read(Jtl jtl) {
        try {
            return jtl.next();
        } catch (IOException e) {
            throw new LabException("cannot read JMeter's results: " + e.getMessage(), e);
        }
    }

    /** The samples as Hyperfoil statistics: one snapshot per thread group and second of the load. */
    private static void add(Tally tally, List<Jtl.Sample> samples) {
        if (samples.isEmpty()) {
            return;
        }
        long start = tally.startMillis();
        Map<String, StatisticsSnapshot> bySecond = new HashMap<>();
        for (Jtl.Sample s : samples) {
            long second = Math.floorDiv(s.startMs() - start, 1000L);
            String group = s.thread().replaceFirst(" \\d+-\\d+$", "");
            StatisticsSnapshot snapshot = bySecond.computeIfAbsent(group + "\n" + second, k -> {
                StatisticsSnapshot n = new StatisticsSnapshot();
                n.histogram.setStartTimeStamp(start + second * 1000L);
                n.extensions.put(BenchmarkYaml.TRANSFER, new TransferSizeRecorder.Stats());
                return n;
            });
            count(snapshot, s);
            tally.users(s.endMs(), s.allThreads());
        }
        bySecond.forEach((key, snapshot) -> tally.add(key.substring(0, key.indexOf('\n')), snapshot));
    }

    /** One request: a response of any status is timed; below HTTP it is a timeout, a connection error or another failure. */
    static void count(StatisticsSnapshot s, Jtl.Sample sample) {
        s.requestCount++;
        TransferSizeRecorder.Stats bytes = (TransferSizeRecorder.Stats) s.extensions.get(BenchmarkYaml.TRANSFER);
        bytes.sent += sample.sentBytes();
        int status = sample.code().matches("\\d{3}") ? Integer.parseInt(sample.code()) : -1;
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
        bytes.received += sample.bytes();
        s.histogram.recordValue(Math.max(1, sample.elapsedMs()) * 1_000_000L);
        HttpStats http = HttpStats.get(s);
        switch (status / 100) {
            case 2 -> http.status_2xx++;
            case 3 -> http.status_3xx++;
            case 4 -> http.status_4xx++;
            case 5 -> http.status_5xx++;
            default -> http.status_other++;
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public List<Block> run(Rounds rounds, Rounds.Listener listener) {
        throw new LabException("the JMeter driver does not run interleaved rounds yet: use --design sequential");
    }

    @Override
    public void cancel() {
        running.forEach(ManagedProcess::close);
    }

    @Override
    public Plan export(LoadSpec spec, String name) {
        return new Plan(SUFFIX, JmeterPlan.render(spec, PhasePlan.of(spec.profile(), 1), name));
    }

    @Override
    public Plan export(Rounds rounds, String name) {
        throw new LabException("the JMeter driver does not run interleaved rounds yet: use --design sequential");
    }
}
