package dev.loomflux.downstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DownstreamIT {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private LatencyStub stub;

    @BeforeEach
    void start() {
        stub = LatencyStub.start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    @Test
    void delayZeroAnswersAtOnceAsText() throws Exception {
        HttpResponse<String> r = get("/delay?ms=0");
        assertEquals(200, r.statusCode());
        assertEquals("waited 0 ms", r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
    }

    @Test
    void absentMsMeansZero() throws Exception {
        assertEquals("waited 0 ms", get("/delay").body());
    }

    @Test
    void delayWaitsAtLeastTheRequestedTime() throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> r = get("/delay?ms=100");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals("waited 100 ms", r.body());
        assertTrue(tookMs >= 100, "took " + tookMs + " ms");
    }

    @Test
    void waitingRequestsHoldNoThread() {
        int n = 200;
        URI uri = uri("/delay?ms=200");
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> calls = IntStream.range(0, n)
                .mapToObj(i -> CLIENT.sendAsync(HttpRequest.newBuilder(uri).build(), BodyHandlers.ofString()))
                .toList();
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        // A few event loop threads serve all 200: one thread per wait would need ~n/threads * 200 ms.
        assertTrue(tookMs < 2_000, n + " concurrent 200 ms requests took " + tookMs + " ms");
        calls.forEach(c -> assertEquals("waited 200 ms", c.join().body()));
    }

    @Test
    void badMsIsA400WithAOneLineMessage() throws Exception {
        for (String ms : List.of("x", "-1", "60001", "99999999999", "1.5")) {
            HttpResponse<String> r = get("/delay?ms=" + ms);
            assertEquals(400, r.statusCode(), "ms=" + ms);
            assertEquals("parameter 'ms' must be an integer in 0..60000", r.body());
            assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
        }
    }

    @Test
    void lognormalWaitsASampleAroundTheMedian() throws Exception {
        int[] waited = new int[21];
        for (int i = 0; i < waited.length; i++) {
            long start = System.nanoTime();
            HttpResponse<String> r = get("/delay?ms=50&dist=lognormal&p99=100");
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(200, r.statusCode(), r.body());
            waited[i] = Integer.parseInt(r.body().split(" ")[1]);
            // sigma = ln 2 / 2.3263 = 0.30: 10..250 ms is beyond 5 sigma either side of the 50 ms median.
            assertTrue(waited[i] >= 10 && waited[i] <= 250, r.body());
            assertTrue(tookMs >= waited[i], "said " + r.body() + ", took " + tookMs + " ms");
        }
        Arrays.sort(waited);
        assertTrue(waited[10] >= 35 && waited[10] <= 75, "median of 21 samples " + waited[10] + " ms");
    }

    @Test
    void badDistIsA400WithAOneLineMessage() throws Exception {
        HttpResponse<String> r = get("/delay?ms=20&dist=gaussian");
        assertEquals(400, r.statusCode());
        assertEquals("parameter 'dist' must be one of fixed, uniform, exponential, lognormal", r.body());
        r = get("/delay?ms=20&dist=lognormal");
        assertEquals(400, r.statusCode());
        assertEquals("parameter 'p99' is required for dist=lognormal", r.body());
    }

    @Test
    void statsCountsServedDelayRequestsOnly() throws Exception {
        get("/delay?ms=0");
        get("/delay?ms=5");
        get("/delay?ms=bad");
        get("/nowhere");
        HttpResponse<String> r = get("/stats");
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("{\"requests\":2}", r.body());
    }

    @Test
    void unknownPathOrMethodIsA404() throws Exception {
        assertEquals(404, get("/").statusCode());
        assertEquals(404, get("/delays").statusCode());
        HttpRequest post = HttpRequest.newBuilder(uri("/delay")).POST(HttpRequest.BodyPublishers.noBody()).build();
        assertEquals(404, CLIENT.send(post, BodyHandlers.ofString()).statusCode());
    }

    @Test
    void optionsDefaultToLoopbackAnd8090() {
        assertEquals(new LatencyStub.Options("127.0.0.1", 8090), LatencyStub.Options.parse());
        assertEquals(new LatencyStub.Options("0.0.0.0", 0), LatencyStub.Options.parse("--port", "0", "--host", "0.0.0.0"));
    }

    @Test
    void badOptionsAreRejectedWithAMessage() {
        for (List<String> args : List.of(List.of("--port"), List.of("--port", "x"), List.of("--port", "65536"),
                List.of("--verbose"), List.of("--host", ""))) {
            var e = assertThrows(IllegalArgumentException.class, () -> LatencyStub.Options.parse(args.toArray(String[]::new)));
            assertTrue(e.getMessage().contains("--"), e.getMessage());
        }
    }

    private HttpResponse<String> get(String pathAndQuery) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(10)).build(),
                BodyHandlers.ofString());
    }

    private URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + stub.port() + pathAndQuery);
    }
}
