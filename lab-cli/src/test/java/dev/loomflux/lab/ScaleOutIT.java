package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.Results;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scale-out as docs/scale-out.md sets it up, with a network namespace as the load host: an agent a user
 * started there with ./lab agent, the target listening on this host's address on the link (--host), and
 * the lab's clock and JMeter's samples reaching back over the same link. Every other agents test runs on
 * loopback, where an address mix-up (the controller's RMI address, the clock's, the target's) goes unseen.
 */
class ScaleOutIT {
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void anAgentOnAnotherHostCarriesTheWholeLoadOverThatHostsLink(@TempDir Path dir) throws Exception {
        String why = NetworkNamespace.unsupported();
        assumeTrue(why == null, why);
        try (NetworkNamespace host = NetworkNamespace.create()) {
            String agent = host.inside() + ":1099";
            Path keystore = dir.resolve("agents.p12");
            Path console = dir.resolve("agent.txt");
            Process agentLab = LabProcess.start(host.exec(), console, "agent", "--bind", agent, "--keystore", keystore.toString());
            try {
                LabProcess.awaitLine(console, "agent: listening on " + agent, 90);
                long sentBefore = host.bytesSentIn();
                LabCli run = LabCli.of("run", "--aot-cache", "--driver", "jmeter", "--agents", agent, "--agent-keystore", keystore.toString(),
                        "--host", host.outside(), "--design", "sequential", "--targets", "mvc", "--scenario", "gateway", "--delay", "20",
                        "--users", "6", "--duration", "4s", "--warmup", "4s", "--cooldown", "0s", "--no-pin");
                long sentIn = host.bytesSentIn() - sentBefore;
                assertEquals(0, run.exitCode(), run.toString());
                JsonNode r = Results.tree(run.out()).path("results").get(0);
                assertEquals("ok", r.path("status").asText(), r.toString());
                JsonNode agents = r.path("driver").path("agents");
                assertEquals(1, agents.size(), r.toString());
                JsonNode a = agents.get(0);
                assertEquals(agent, a.path("agent").asText());
                long responses = r.path("responses").asLong();
                assertTrue(responses > 100, r.toString());
                assertEquals(responses, a.path("responses").asLong(), "the agent sent the whole load: " + a);
                // Little's law: the 6 users, all on the agent, each in a request but for JMeter's own time between two.
                assertEquals(6, r.path("in_flight").asDouble(), 0.6, r.toString());
                assertTrue(a.path("cpu_pct_mean").asDouble() > 0, "the agent reported its CPU over the link: " + a);
                assertTrue(Math.abs(a.path("clock_offset_ms").asDouble()) < 1000, "the agent read the lab's clock: " + a);
                // Every response went into the namespace over the link: mvc's gateway responses are 150-odd bytes with headers.
                assertTrue(sentIn >= responses * 100, sentIn + " bytes sent over the link for " + responses + " responses");
            } finally {
                agentLab.destroy();
                assertTrue(agentLab.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "the agent stops on SIGTERM");
                assertTrue(agentLab.descendants().findAny().isEmpty(), "nothing of the agent is left");
            }
        }
    }
}
