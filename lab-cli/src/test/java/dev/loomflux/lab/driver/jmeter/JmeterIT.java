package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.AgentShare;
import dev.loomflux.lab.driver.DriverSetup;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.Stub;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import dev.loomflux.lab.experiment.LoadProfile;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JMeter driver against the real downstream stub: the home the build assembles, the plan the lab
 * renders, the results file read as it grows into the same seconds and totals as Hyperfoil's; the
 * closed model held to Little's law, the open model to its schedule.
 */
class JmeterIT {
    private static final String JMETER = dev.loomflux.lab.result.Environment.buildVersions().get("jmeter");
    private static Stub stub;
    private static LabProcesses processes;

    @BeforeAll
    static void startStub() throws Exception {
        processes = new LabProcesses();
        stub = Stub.start();
    }

    @AfterAll
    static void stopStub() throws Exception {
        if (stub != null) {
            stub.close();
        }
        processes.close();
    }

    private static Measurement run(LoadProfile profile, String path, List<Second> live) {
        return new Jmeter(processes, JmeterType.home()).run(new LoadSpec(stub.base(), path, profile, 1), live::add);
    }

    /** The series, the intervals and the totals describe the same requests, and the listener saw every second. */
    private static void consistent(Measurement m, List<Second> live) {
        assertEquals(m.requests(), m.series().stream().mapToLong(Second::requests).sum(), "requests by second");
        assertEquals(m.responses(), m.series().stream().mapToLong(Second::responses).sum(), "responses by second");
        assertEquals(m.series().size(), m.intervals().size());
        assertEquals(m.latency().getTotalCount(), m.intervals().stream().mapToLong(Histogram::getTotalCount).sum());
        assertEquals(m.series(), live, "each second told once, as it was measured");
    }

    @Test
    void eightUsersOverAFiftyMillisecondStubKeepEightRequestsInFlight() {
        List<Second> live = new CopyOnWriteArrayList<>();
        Measurement m = run(new LoadProfile.Fixed(8, Duration.ofSeconds(5)), "/delay?ms=50", live);
        consistent(m, live);
        assertEquals(0, m.errors().total(), m.errors().toString());
        assertEquals(m.requests(), m.responses());
        // Little's law: 8 users, each always in a request but for JMeter's own time between a response and the next one.
        assertEquals(8, m.inFlight(), 0.8, m.throughput() + " requests/s");
        // ~155/s at 50-52 ms a request (JMeter counts whole ms); what must not happen is a stall: under 200 ms on average.
        assertTrue(m.throughput() > 8 / 0.2, m.throughput() + " requests/s");
        assertTrue(m.bytesReceived() > m.responses() * 50 && m.bytesSent() > m.requests() * 50, m.bytesReceived() + " / " + m.bytesSent());
        assertTrue(m.series().size() >= 5 && m.series().size() <= 6, m.series().toString());
    }

    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void aRateOfOneHundredASecondSendsOneHundredEverySecond() {
        List<Second> live = new CopyOnWriteArrayList<>();
        Measurement m = run(new LoadProfile.Rate(100, Duration.ofSeconds(4), 100), "/delay?ms=20", live);
        consistent(m, live);
        assertEquals(400, m.requests(), "the schedule's arrivals, each one request");
        // The pause after the arrivals lets the last requests finish (JmeterPlan); every one must be answered.
        assertEquals(0, m.errors().total(), m.errors().toString());
        // JMeter's schedule starts before its first thread sends: the arrivals it is late for go out at once, so the
        // first second counted from the first request holds more (158 once, the last second then 42).
        for (int t = 1; t < 3; t++) {
            assertEquals(100, m.series().get(t).requests(), 5, "second " + t + ": " + m.series());
        }
    }

    private static Measurement onTwoAgents(LoadProfile profile, String path, List<Second> live) {
        return new Jmeter(processes, JmeterType.home(), new JmeterAgents(2, List.of(), null)).run(new LoadSpec(stub.base(), path, profile, 1), live::add);
    }

    /** The agents' parts add up to the load, and each keeps its share of the users busy: JMeter's controller and two agents over SSL. */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void twoAgentsShareFiveUsersThreeAndTwo() {
        List<Second> live = new CopyOnWriteArrayList<>();
        // 10 s, not 5: the agents start their users up to a second apart and cold (first second: 3-4 users, p99 ~600 ms),
        // which at 5 s left 4.63 and 4.65 of 5 in flight on a quiet host and 4.47 once in CI.
        Measurement m = onTwoAgents(new LoadProfile.Fixed(5, Duration.ofSeconds(10)), "/delay?ms=50", live);
        consistent(m, live);
        assertEquals(0, m.errors().total(), m.errors().toString());
        assertEquals(2, m.agents().size(), m.agents().toString());
        assertEquals(m.requests(), m.agents().stream().mapToLong(AgentShare::requests).sum(), m.agents().toString());
        assertEquals(m.responses(), m.agents().stream().mapToLong(AgentShare::responses).sum(), m.agents().toString());
        assertEquals(5, m.inFlight(), 0.5, m.throughput() + " requests/s");
        // The first agent takes the user that does not divide evenly.
        assertEquals(3, m.agents().get(0).inFlight(), 0.3, m.agents().toString());
        assertEquals(2, m.agents().get(1).inFlight(), 0.2, m.agents().toString());
        for (AgentShare a : m.agents()) {
            // One host, one clock: the reading finds no offset beyond its own error and the clock's 1 ms steps.
            assertTrue(a.clockErrorMs() >= 0 && a.clockErrorMs() < 50, a.toString());
            assertTrue(Math.abs(a.clockOffsetMs()) <= a.clockErrorMs() + 1, a.toString());
            // Its JVM's CPU as it reported it each second: on this host, with this host's processors, and per request
            // in the range JMeter costs (calibrate: 238 us per request at full speed; more here, where an idle agent's
            // own work is spread over ~60 requests/s). Off by a unit (ns for us) it would be 1,000 times out.
            // Each agent's own latencies, of a stub that answers after 50 ms: none faster, none near a second.
            assertTrue(a.p50Ms() >= 50 && a.p50Ms() <= a.p99Ms() && a.p99Ms() < 1000, a.toString());
            assertEquals(Runtime.getRuntime().availableProcessors(), a.cpu().cpus(), a.toString());
            assertTrue(a.cpu().meanPct() > 0 && a.cpu().meanPct() <= a.cpu().maxPct() && a.cpu().maxPct() <= 100.0 * a.cpu().cpus(), a.toString());
            double cpuMsPerRequest = a.cpu().meanPct() / 100 * 1000 / a.throughputRps();
            assertTrue(cpuMsPerRequest > 0.05 && cpuMsPerRequest < 20, cpuMsPerRequest + " ms of CPU per request: " + a);
        }
    }

    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void twoAgentsSplitARateInHalves() {
        List<Second> live = new CopyOnWriteArrayList<>();
        Measurement m = onTwoAgents(new LoadProfile.Rate(100, Duration.ofSeconds(4), 100), "/delay?ms=20", live);
        consistent(m, live);
        assertEquals(400, m.requests(), "the schedule's arrivals over both agents");
        assertEquals(0, m.errors().total(), m.errors().toString());
        assertEquals(List.of(200L, 200L), m.agents().stream().map(AgentShare::requests).toList(), m.agents().toString());
    }

    /** Agents a user started (./lab agent) on their address, with the keystore they were given; the lab attaches to them. */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void agentsAUserStartedAreReachedWithTheirKeystore(@TempDir Path dir) throws Exception {
        Path keystore = dir.resolve("agents.p12");
        JmeterCluster.makeKeystore(keystore, JmeterCluster.AGENT_KEYSTORE_PASSWORD);
        JmeterCluster.writeProperties(dir.resolve("ssl.properties"), keystore, JmeterCluster.AGENT_KEYSTORE_PASSWORD);
        List<ManagedProcess> agents = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                String address;
                try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                    address = "127.0.0.1:" + s.getLocalPort();
                }
                agents.add(JmeterCluster.startAgent(processes, JmeterType.home(), address, dir.resolve("ssl.properties"), dir.resolve("agent-" + i + ".log")));
                addresses.add(address);
            }
            for (int i = 0; i < 2; i++) {
                JmeterCluster.awaitAgent(agents.get(i), addresses.get(i));
            }
            JmeterAgents remote = JmeterAgents.parse(DriverSetup.Agents.flags(String.join(",", addresses), keystore));
            // The check before a run: both agents run the lab's check plan over RMI, on the lab's JMeter, their clocks read closely.
            remote.requireReady("--agents", processes, JmeterType.home(), JMETER);
            // An address that answers TCP but is no JMeter agent is refused before anything starts, in one line naming it.
            try (ServerSocket impostor = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
                String address = "127.0.0.1:" + impostor.getLocalPort();
                UsageException no = assertThrows(UsageException.class, () -> JmeterAgents.parse(DriverSetup.Agents.flags(address, keystore))
                        .requireReady("--agents", processes, JmeterType.home(), JMETER));
                assertTrue(no.getMessage().startsWith("--agents: agent " + address + " did not run the lab's check plan over JMeter's RMI"), no.getMessage());
                assertEquals(1, no.getMessage().lines().count(), no.getMessage());
            }
            UsageException other = assertThrows(UsageException.class, () -> remote.requireReady("--agents", processes, JmeterType.home(), "5.5"));
            assertEquals("--agents: agent " + addresses.get(0) + " runs JMeter " + JMETER + ", the lab 5.5: build the same checkout there", other.getMessage());
            List<Second> live = new CopyOnWriteArrayList<>();
            // 5 s, not 3: cold agents leave gaps between a user's first requests, and over 3 s those read 3.58 users in flight of 4 once (CI, session 26).
            Measurement m = new Jmeter(processes, JmeterType.home(), remote).run(new LoadSpec(stub.base(), "/delay?ms=50", new LoadProfile.Fixed(4, Duration.ofSeconds(5)), 1), live::add);
            consistent(m, live);
            assertEquals(addresses, m.agents().stream().map(AgentShare::agent).toList());
            assertEquals(m.requests(), m.agents().stream().mapToLong(AgentShare::requests).sum());
            assertEquals(4, m.inFlight(), 0.4, m.agents().toString());
            assertTrue(agents.stream().allMatch(ManagedProcess::isAlive), "a user's agents serve the next load too");
        } finally {
            agents.forEach(ManagedProcess::close);
        }
        UsageException gone = assertThrows(UsageException.class, () -> JmeterAgents.parse(DriverSetup.Agents.flags(addresses.get(0), keystore)).requireReady("--agents", processes, JmeterType.home(), JMETER));
        assertTrue(gone.getMessage().contains("agent " + addresses.get(0) + " does not answer"), gone.getMessage());
    }

    /** An agent that dies mid-load fails that load in one line, and nothing of it is left running. */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void anAgentThatDiesFailsItsLoadAndLeavesNothingBehind() {
        Jmeter jmeter = new Jmeter(processes, JmeterType.home(), new JmeterAgents(2, List.of(), null));
        AtomicBoolean killed = new AtomicBoolean();
        LabException e = assertThrows(LabException.class, () -> jmeter.run(new LoadSpec(stub.base(), "/delay?ms=20", new LoadProfile.Fixed(4, Duration.ofSeconds(30)), 1),
                s -> {
                    if (s.t() >= 1 && killed.compareAndSet(false, true)) {
                        // The controller is started last: the first of the driver's processes is an agent.
                        jmeter.processes().stream().filter(p -> p.info().commandLine().orElse("").contains(" -s ")).findFirst().orElseThrow().destroyForcibly();
                    }
                }));
        assertTrue(e.getMessage().matches("JMeter agent 127\\.0\\.0\\.1:\\d+ died \\(.*"), e.getMessage());
        assertTrue(jmeter.processes().isEmpty(), "none of the load's processes left: " + jmeter.processes());
    }
}
