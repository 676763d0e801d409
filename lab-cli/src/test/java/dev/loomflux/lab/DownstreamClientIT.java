package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.targets.TargetConfig;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The downstream client chosen per target: each library is the one /config reports, and each holds the shared connection cap. */
class DownstreamClientIT {
    /**
     * Two connections, 8 users and a 100 ms downstream: a client that keeps to its cap serves 2 / 0.1 s = 20
     * requests/s whatever the server's threads (Little's law), one that does not would serve up to 80. The JDK
     * client has no cap of its own: this is the test of the target's permit limit.
     */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void everyClientHoldsTheSharedConnectionCap() throws Exception {
        Map<String, String> libraries = Map.of("apache-2", "apache-httpclient5", "jdk-2", "jdk-httpclient", "netty-2", "reactor-netty");
        LabCli run = LabCli.of("run", "--aot-cache", "--design", "sequential", "--targets", "apache-2,jdk-2,netty-2",
                "--define", "apache-2=mvc,loomflux.http-client.max-connections=2,loomflux.http-client.library=apache-httpclient5",
                "--define", "jdk-2=mvc-vt,loomflux.http-client.max-connections=2,loomflux.http-client.library=jdk-httpclient",
                "--define", "netty-2=webflux-vt,loomflux.http-client.max-connections=2,loomflux.http-client.library=reactor-netty",
                "--scenario", "gateway", "--delay", "100", "--users", "8", "--duration", "4s", "--warmup", "3s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        RunRecord root = run.record();
        assertEquals(3, root.results().size(), root.toString());
        for (Result r : root.results()) {
            String target = r.target();
            TargetConfig.HttpClientPool client = r.visit().targetConfig().httpClient();
            assertEquals(libraries.get(target), client.library(), target + " " + client);
            assertEquals(2, client.maxConnections(), target + " " + client);
            assertEquals(0, r.load().errors().total(), target + " " + r.load().errors());
            double rps = r.load().throughputRps();
            // At most 20/s; a little less for each call's own time over the 100 ms.
            assertTrue(rps > 16 && rps <= 20.5, target + " " + rps + " requests/s with 2 connections over 100 ms");
            // Each request waits for three others ahead of it: about 4 x 100 ms.
            assertTrue(r.load().latencyMs().p50() > 350, target + " " + r.load().latencyMs());
        }
    }
}
