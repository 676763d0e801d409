package dev.loomflux.lab.wrk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Real wrk 4.1.0 (Debian) output captured on the lab machine, one file per case. */
class WrkOutputTest {
    private static String resource(String name) throws IOException {
        try (InputStream in = WrkOutputTest.class.getResourceAsStream("/wrk/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void stubAtZeroMillisecondsWithLatencyDistribution() throws IOException {
        WrkResult r = WrkOutput.parse(resource("stub-0ms.txt"));
        assertEquals(65755.07, r.requestsPerSecond());
        assertEquals(661_139, r.requests());
        assertEquals(10.05, r.seconds(), 1e-9);
        assertEquals(0.799, r.p50Ms(), 1e-9);
        assertEquals(3.39, r.p90Ms(), 1e-9);
        assertEquals(29.95, r.p99Ms(), 1e-9);
        assertEquals(0, r.errors());
    }

    @Test
    void plaintextTarget() throws IOException {
        WrkResult r = WrkOutput.parse(resource("mvc-vt-plaintext.txt"));
        assertEquals(22787.58, r.requestsPerSecond());
        assertEquals(228_185, r.requests());
        assertEquals(2.72, r.p50Ms(), 1e-9);
        assertEquals(6.45, r.p99Ms(), 1e-9);
    }

    @Test
    void non2xxResponsesAreErrors() throws IOException {
        WrkResult r = WrkOutput.parse(resource("not-found.txt"));
        assertEquals(475.73, r.requestsPerSecond());
        assertEquals(1429, r.non2xx());
        assertEquals(1429, r.errors());
        // Percentiles printed in seconds ("1.06s") become milliseconds.
        assertEquals(1560, r.p99Ms(), 1e-9);
    }

    @Test
    void socketErrorsAreSummed() throws IOException {
        WrkResult r = WrkOutput.parse(resource("timeouts.txt"));
        assertEquals(2.66, r.requestsPerSecond());
        assertEquals(8, r.socketErrors());
        assertEquals(0, r.non2xx());
    }

    @Test
    void outputWithoutRequestsPerSecondIsRejectedNamingItsFirstLine() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WrkOutput.parse(resource("usage.txt")));
        assertTrue(e.getMessage().contains("no 'Requests/sec:'") && e.getMessage().contains("Usage: wrk <options> <url>"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WrkOutput.parse(""));
    }

    @Test
    void windowsLineEndingsAndMissingOptionalLinesAreFine() {
        WrkResult r = WrkOutput.parse("Running 1s test @ http://x/\r\n  10 requests in 1.00s, 1.00KB read\r\nRequests/sec:     10.00\r\n");
        assertEquals(10.0, r.requestsPerSecond());
        assertEquals(10, r.requests());
        assertTrue(Double.isNaN(r.p99Ms()));
    }
}
