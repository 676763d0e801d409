package dev.loomflux.lab.driver;

import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The driver against the real downstream stub. Bands are wide because the machine is small and
 * shared, but each assertion fails if the driver miscounts, mis-schedules or loses requests.
 */
class LoadDriverIT {
    private static final LoadDriver DRIVER = new Hyperfoil();

    private static Stub stub;

    @BeforeAll
    static void startStub() throws Exception {
        stub = Stub.start();
        // The first load in a JVM pays for class loading and the JIT (measured: a 650 ms p99 in its
        // first second), which the lab's warmup absorbs; here a short run does.
        DRIVER.run(spec("/delay?ms=0", new LoadProfile.Burst(4, 250), 1), null);
    }

    @AfterAll
    static void stopStub() throws Exception {
        if (stub != null) {
            stub.close();
        }
    }

    private static LoadSpec spec(String path, LoadProfile profile, int threads) {
        return new LoadSpec(stub.base(), path, profile, threads);
    }

    /** Holds for every measurement: the series, the intervals and the totals describe the same requests. */
    private static Measurement consistent(Measurement m) {
        assertEquals(m.requests(), m.series().stream().mapToLong(Second::requests).sum(), "requests by second");
        assertEquals(m.responses(), m.series().stream().mapToLong(Second::responses).sum(), "responses by second");
        assertEquals(m.errors().total(), m.series().stream().mapToLong(Second::errors).sum(), "errors by second");
        assertEquals(m.series().size(), m.intervals().size());
        assertEquals(m.latency().getTotalCount(), m.intervals().stream().mapToLong(Histogram::getTotalCount).sum());
        assertTrue(m.series().size() <= (m.elapsed().toMillis() + 999) / 1000, "no second after the end: " + m.series());
        for (int t = 0; t < m.series().size(); t++) {
            assertEquals(t, m.series().get(t).t());
        }
        return m;
    }

    private static void print(String name, Measurement m) {
        System.out.printf("%s: requests=%d responses=%d errors=%s cacheHits=%d elapsed=%d ms p50=%.2f ms p99=%.2f ms"
                        + " sent=%d B received=%d B behind=%s%n", name, m.requests(), m.responses(), m.errors(),
                m.cacheHits(), m.elapsed().toMillis(), m.latency().getValueAtPercentile(50) / 1e6,
                m.latency().getValueAtPercentile(99) / 1e6, m.bytesSent(), m.bytesReceived(), m.behindSchedule());
        m.series().forEach(s -> System.out.println("  " + s));
    }

    @Test
    void everyRequestReachesTheTarget() throws Exception {
        long before = stub.served();
        Measurement m = consistent(DRIVER.run(spec("/delay?ms=0", new LoadProfile.Loops(5, 200), 2), null));
        long served = stub.served() - before;
        print("loops 5x200", m);

        assertEquals(1000, m.requests());
        assertEquals(1000, m.responses());
        assertEquals(1000, served, "requests the stub answered");
        assertEquals(0, m.cacheHits());
        assertEquals(0, m.errors().total());
        // A GET with host and cache-control headers, and a short text response: tens to a few hundred bytes each.
        assertTrue(m.bytesSent() / 1000 > 40 && m.bytesSent() / 1000 < 400, "bytes sent per request " + m.bytesSent() / 1000);
        assertTrue(m.bytesReceived() / 1000 > 40 && m.bytesReceived() / 1000 < 400, "bytes received per response");
        assertEquals(1000, m.latency().getTotalCount());
        // Two event loops: users start in two slots, at 0 and 500 ms.
        assertTrue(m.elapsed().toMillis() >= 500, "the last users start 500 ms in: " + m.elapsed());
    }

    @Test
    void fixedUsersGetClosedModelThroughput() {
        List<Second> live = new CopyOnWriteArrayList<>();
        Measurement m = consistent(DRIVER.run(spec("/delay?ms=20", new LoadProfile.Fixed(20, Duration.ofSeconds(3)), 1), live::add));
        print("fixed 20 users 3 s", m);

        double rps = m.responses() / (m.elapsed().toMillis() / 1000.0);
        assertTrue(rps > 600 && rps < 1100, "20 users / 20 ms should give about 1000 rps, got " + rps);
        double p50Ms = m.latency().getValueAtPercentile(50) / 1e6;
        assertTrue(p50Ms >= 19.8, "the stub waits 20 ms (histogram resolution 1%), p50 " + p50Ms);
        // Little's law ties the counts to the latencies: users = throughput x time in system.
        double meanSeconds = m.latency().getMean() / 1e9;
        double users = rps * meanSeconds;
        assertTrue(users > 17 && users <= 20.5, "throughput x mean latency should be ~20 users, got " + users);

        assertEquals(3, m.series().size(), "3 seconds: " + m.series());
        for (Second s : m.series()) {
            assertTrue(s.users() >= 18 && s.users() <= 20, "users in second " + s.t() + ": " + s.users());
            assertEquals(-1, s.intended());
            assertTrue(s.p50Ms() >= 19.8, "p50 in second " + s.t());
        }
        assertEquals(0, m.errors().total());
        assertEquals(0, m.cacheHits());

        for (int t = 0; t < m.intervals().size(); t++) {
            Histogram h = m.intervals().get(t);
            assertEquals(1000, h.getEndTimeStamp() - h.getStartTimeStamp(), "interval " + t + " length");
            if (t > 0) {
                assertEquals(m.intervals().get(t - 1).getEndTimeStamp(), h.getStartTimeStamp(), "intervals are contiguous");
            }
        }
        // Every second reached the listener once, in order.
        assertEquals(m.series().stream().map(Second::t).toList(), live.stream().map(Second::t).toList());
    }

    /** Little's law over the whole cycle, N = X (R + Z): the pause is the users' and not the target's. */
    @Test
    void thinkTimePacesEveryUser() {
        Duration pause = Duration.ofMillis(100);
        Measurement m = consistent(DRIVER.run(spec("/delay?ms=0", new LoadProfile.Fixed(10, Duration.ofSeconds(4), new Think(pause, pause)), 2), null));
        print("fixed 10 users 100 ms think 4 s", m);
        // 10 users / (100 ms + well under 1 ms) = about 100 requests/s.
        assertEquals(100, m.throughput(), 10, "10 users each pausing 100 ms");
        double cycling = m.throughput() * (m.latency().getMean() / 1e9 + pause.toMillis() / 1000.0);
        assertEquals(10, cycling, 0.5, "throughput x (latency + pause) = the users");
        assertTrue(m.inFlight() < 0.5, "a user is in a request a few % of the time, not always: " + m.inFlight());
        assertEquals(0, m.errors().total());

        // Uniform 50-250 ms: a mean pause of 150 ms, so about 67 requests/s.
        Measurement u = consistent(DRIVER.run(spec("/delay?ms=0", new LoadProfile.Fixed(10, Duration.ofSeconds(4),
                new Think(Duration.ofMillis(50), Duration.ofMillis(250))), 2), null));
        print("fixed 10 users 50-250 ms think 4 s", u);
        assertEquals(1000 / 15.0, u.throughput(), 1000 / 15.0 * 0.1, "10 users each pausing 150 ms on average");
    }

    @Test
    void rateKeepsItsSchedule() {
        Measurement m = consistent(DRIVER.run(spec("/delay?ms=5", new LoadProfile.Rate(200, Duration.ofSeconds(3), 50), 1), null));
        print("rate 200/s 3 s", m);

        assertTrue(m.requests() >= 540 && m.requests() <= 660, "about 600 requests, got " + m.requests());
        assertEquals(m.requests(), m.responses());
        List<Second> full = m.series().subList(0, 3);
        for (Second s : full) {
            assertEquals(200, s.intended(), "arrivals scheduled in second " + s.t());
            // An arrival due just before a second boundary may start just after it on a busy machine.
            assertTrue(s.requests() >= 180 && s.requests() <= 220, "requests started in second " + s.t() + ": " + s.requests());
        }
        assertFalse(m.behindSchedule());
        assertEquals(0, m.errors().total());
    }

    @Test
    void rateBeyondItsUsersIsBehindSchedule() {
        // 5 users x 50 ms can carry 100 arrivals a second; the schedule asks for 500.
        Measurement m = consistent(DRIVER.run(spec("/delay?ms=50", new LoadProfile.Rate(500, Duration.ofSeconds(3), 5), 1), null));
        print("rate 500/s with 5 users at 50 ms", m);

        assertTrue(m.behindSchedule());
        for (Second s : m.series().subList(0, 3)) {
            assertEquals(500, s.intended());
            assertTrue(s.requests() <= 120, "5 users cannot start more than ~100 requests a second: " + s.requests());
            assertTrue(s.users() >= 4, "all 5 users busy in second " + s.t() + ": " + s.users());
        }
    }

    @Test
    void stagesRampUsersUpAndDown() {
        LoadProfile.Stages ramp = new LoadProfile.Stages(List.of(
                new LoadProfile.Stage(Duration.ofSeconds(1), 10),
                new LoadProfile.Stage(Duration.ofSeconds(2), 10),
                new LoadProfile.Stage(Duration.ofSeconds(1), 0)));
        Measurement m = consistent(DRIVER.run(spec("/delay?ms=10", ramp, 1), null));
        print("stages 1s->10, 2s->10, 1s->0", m);

        assertEquals(4, m.series().size(), "four seconds: " + m.series());
        int[] expected = {5, 10, 10, 5}; // the ramp sampled at the middle of each second
        for (Second s : m.series()) {
            assertTrue(Math.abs(s.users() - expected[s.t()]) <= 1, "users in second " + s.t() + ": " + s.users());
            // ~1 request per user per 10 ms, less the driver's and stub's own time.
            assertTrue(s.responses() > expected[s.t()] * 40, "responses in second " + s.t() + ": " + s.responses());
        }
        assertEquals(0, m.errors().total());
    }

    @Test
    void burstSendsEveryRequest() throws Exception {
        long before = stub.served();
        Measurement m = consistent(DRIVER.run(spec("/delay?ms=10", new LoadProfile.Burst(50, 4), 2), null));
        print("burst 50x4", m);

        assertEquals(200, m.responses());
        assertEquals(200, stub.served() - before);
        assertEquals(0, m.errors().total());
    }

    @Test
    void clientErrorsAreCountedAndUsersCarryOn() throws Exception {
        long before = stub.served();
        Measurement m = consistent(DRIVER.run(spec("/delay?ms=abc", new LoadProfile.Loops(2, 10), 1), null));
        print("loops 2x10 of 400s", m);

        assertEquals(20, m.responses());
        assertEquals(20, m.errors().status4xx());
        assertEquals(20, m.errors().total());
        assertEquals(0, stub.served() - before, "the stub counts only the requests it answered with 200");
    }

    @Test
    void timeoutsAreNotAlsoConnectErrors() {
        LoadSpec slow = new LoadSpec(stub.base(), "/delay?ms=2000", new LoadProfile.Loops(2, 2), 1, Duration.ofMillis(200));
        Measurement m = consistent(DRIVER.run(slow, null));
        print("loops 2x2 timing out after 200 ms", m);

        assertEquals(4, m.requests());
        assertEquals(0, m.responses());
        assertEquals(new Errors(0, 4, 0, 0, 0), m.errors());
        assertEquals(0, m.latency().getTotalCount(), "a timeout has no latency");
    }

    @Test
    void cancelReturnsPromptlyWithWhatWasMeasured() {
        ScheduledExecutorService canceller = Executors.newSingleThreadScheduledExecutor();
        AtomicLong cancelledAt = new AtomicLong();
        try {
            canceller.schedule(() -> {
                cancelledAt.set(System.nanoTime());
                DRIVER.cancel();
            }, 2500, TimeUnit.MILLISECONDS);
            Measurement m = DRIVER.run(spec("/delay?ms=20", new LoadProfile.Fixed(10, Duration.ofSeconds(30)), 1), null);
            long returnedAfterMs = (System.nanoTime() - cancelledAt.get()) / 1_000_000;
            consistent(m);
            print("fixed 10 users 30 s, cancelled at 2.5 s (returned " + returnedAfterMs + " ms later)", m);

            assertTrue(cancelledAt.get() != 0, "run() returned before the cancel");
            assertTrue(returnedAfterMs < 3000, "run() returned " + returnedAfterMs + " ms after cancel");
            // The load starts after the driver's setup (100-300 ms of the 2.5 s), so elapsed is
            // a little under 2.5 s; the point is that it is nowhere near the profile's 30 s.
            assertTrue(m.elapsed().toMillis() >= 1800 && m.elapsed().toMillis() < 5000, "elapsed " + m.elapsed());
            assertTrue(m.responses() > 300, "2.5 s of 10 users at 20 ms: " + m.responses());
            assertTrue(m.series().size() >= 2 && m.series().size() <= 4, "seconds until the cancel: " + m.series());
            assertTrue(m.requests() - m.responses() <= 10, "at most one abandoned request per user");
        } finally {
            canceller.shutdownNow();
        }
    }

    @Test
    void refusedConnectionsFailWithOneLine() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        LoadSpec dead = new LoadSpec(URI.create("http://127.0.0.1:" + port), "/", new LoadProfile.Burst(2, 1), 1);
        long start = System.nanoTime();
        LabException e = assertThrows(LabException.class, () -> DRIVER.run(dead, null));
        System.out.println("refused: " + e.getMessage());
        assertTrue(e.getMessage().startsWith("cannot connect to http://127.0.0.1:" + port + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue((System.nanoTime() - start) / 1_000_000 < 10_000, "fails fast");
    }
}
