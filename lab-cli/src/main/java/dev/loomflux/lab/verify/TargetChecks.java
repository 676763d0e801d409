package dev.loomflux.lab.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.sut.Http;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.targets.HttpClientLibrary;
import dev.loomflux.targets.TargetConfig;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;

/**
 * Proves a target correct before anything loads it, as the TechEmpower toolset does:
 * status, content type and body of every endpoint, timing of the I/O endpoints, bad input.
 * Expected values are computed here independently of the targets' shared code.
 */
public final class TargetChecks {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final RunningTarget target;
    private final boolean withDatabase;
    private final List<CheckResult> results = new ArrayList<>();

    private TargetChecks(RunningTarget target, boolean withDatabase) {
        this.target = target;
        this.withDatabase = withDatabase;
    }

    public static List<CheckResult> run(RunningTarget target, boolean withDatabase) {
        TargetChecks c = new TargetChecks(target, withDatabase);
        c.all();
        return c.results;
    }

    private void all() {
        check("plaintext", "/plaintext", r -> {
            expectType(r, "text/plain");
            expect(r.body().equals("Hello, World!"), "body " + quote(r.body()));
        });
        check("json", "/json", r -> {
            expectType(r, "application/json");
            JsonNode n = JSON.readTree(r.body());
            expect(n.size() == 1 && "Hello, World!".equals(n.path("message").asText()), "body " + r.body());
        });
        check("gateway delay=50 >= 50 ms", "/gateway?delay=50", r -> {
            expectType(r, "text/plain");
            expect(r.body().equals("waited 50 ms"), "body " + quote(r.body()));
            expect(r.elapsedMillis() >= 50, "took " + r.elapsedMillis() + " ms");
        });
        check("chain delay=20 depth=3 >= 60 ms", "/chain?delay=20&depth=3", r -> {
            expectType(r, "application/json");
            JsonNode n = JSON.readTree(r.body());
            expect(n.path("depth").asInt() == 3 && n.path("delay").asInt() == 20, "body " + r.body());
            JsonNode responses = n.path("responses");
            expect(responses.size() == 3, responses.size() + " responses");
            responses.forEach(x -> expect(x.asText().equals("waited 20 ms"), "response " + x));
            expect(r.elapsedMillis() >= 60, "took " + r.elapsedMillis() + " ms");
        });
        check("chain delay=50 depth=0 >= 50 ms, no call", "/chain?delay=50&depth=0", r -> {
            expectType(r, "application/json");
            JsonNode n = JSON.readTree(r.body());
            expect(n.path("depth").asInt() == 0 && n.path("delay").asInt() == 50 && n.path("responses").isEmpty(), "body " + r.body());
            expect(r.elapsedMillis() >= 50, "took " + r.elapsedMillis() + " ms");
        });
        if (withDatabase) {
            items(0, 20);
            items(3, 7);
            items(2, 100);
            items(499, 20);
            check("items past the end is empty", "/items?page=1000&size=100", r -> {
                expect(JSON.readTree(r.body()).path("items").size() == 0, "body " + abbreviate(r.body()));
            });
            check("mixed work=1 page=2 size=3 delay=20 >= 20 ms", "/mixed?work=1&page=2&size=3&delay=20", r -> {
                expectType(r, "application/json");
                JsonNode n = JSON.readTree(r.body());
                expect(n.path("digest").asText().equals(sha256Rounds(1)), "digest " + n.path("digest"));
                JsonNode items = n.path("items").path("items");
                expect(items.size() == 3 && items.get(0).path("id").asLong() == 7, "items " + abbreviate(n.path("items").toString()));
                expect(n.path("downstream").asText().equals("waited 20 ms"), "downstream " + n.path("downstream"));
                expect(r.elapsedMillis() >= 20, "took " + r.elapsedMillis() + " ms");
            });
        }
        check("gateway delay=20 dist=lognormal p99=40", "/gateway?delay=20&dist=lognormal&p99=40", r -> {
            expectType(r, "text/plain");
            expect(r.body().matches("waited [0-9]+ ms"), "body " + quote(r.body()));
        });
        check("cpu work=1", "/cpu?work=1", r -> {
            expectType(r, "text/plain");
            expect(r.body().equals(sha256Rounds(1)), "body " + quote(r.body()));
        });
        check("cpu work=1000", "/cpu?work=1000", r -> expect(r.body().equals(sha256Rounds(1000)), "body " + quote(r.body())));
        described("config", "/config", this::config);
        for (String bad : List.of("/items?size=abc", "/items?size=1000", "/items?page=-1", "/cpu?work=-1",
                "/cpu?work=99999999999", "/gateway?delay=x", "/gateway?delay=999999", "/chain?depth=-1", "/chain?depth=99", "/chain?depth=0&delay=20&dist=uniform",
                "/gateway?delay=20&dist=normal", "/gateway?delay=20&dist=lognormal", "/gateway?delay=20&p99=40")) {
            status("bad input " + bad, bad, 400);
        }
        status("unknown path", "/no-such-path", 404);
    }

    private void items(int page, int size) {
        check("items page=" + page + " size=" + size, "/items?page=" + page + "&size=" + size, r -> {
            expectType(r, "application/json");
            JsonNode n = JSON.readTree(r.body());
            JsonNode items = n.path("items");
            expect(n.path("page").asInt() == page && n.path("size").asInt() == size, "page/size " + n.path("page") + "/" + n.path("size"));
            expect(items.size() == size, items.size() + " rows, wanted " + size);
            long first = (long) page * size + 1;
            for (int i = 0; i < items.size(); i++) {
                JsonNode item = items.get(i);
                long id = item.path("id").asLong();
                expect(id == first + i, "row " + i + " has id " + id + ", wanted " + (first + i));
                expect(item.path("name").asText().equals(String.format("item-%05d", id)), "row " + id + " name " + item.path("name"));
                expect(item.path("priceCents").asLong() == (id * 7919) % 100000, "row " + id + " priceCents " + item.path("priceCents"));
            }
        });
    }

    /** Names the server and the thread that served /config, so the table shows where requests run. */
    private String config(Http.Reply r) throws Exception {
        expectType(r, "application/json");
        TargetConfig c = Json.read(r.body(), TargetConfig.class);
        TargetSpec spec = target.spec();
        expect(spec.name().equals(c.target()), "target " + c.target());
        expect(c.requestThread() != null, "request_thread missing");
        boolean virtual = c.requestThread().virtual();
        // Event loops are platform threads: a virtual request thread is off the event loop.
        expect(virtual == spec.virtualThreads(), "request thread " + c.requestThread() + ", virtual threads wanted: " + spec.virtualThreads());
        expect(c.server() != null && c.server().engine() != null, "server.engine missing");
        expect(c.dbPool() != null && c.dbPool().maxSize() > 0, "db_pool.max_size missing");
        expect(c.httpClient() != null && c.httpClient().maxConnections() > 0, "http_client.max_connections missing");
        expect(c.jvm() != null && c.jvm().availableProcessors() > 0, "jvm.available_processors missing");
        // A declared override must show up in the running target, or the comparison is void.
        for (Override o : OVERRIDES) {
            String wanted = spec.properties().get(o.property());
            if (wanted != null) {
                String actual = String.valueOf(o.actual().apply(c));
                expect(wanted.equals(actual), o.property() + "=" + wanted + " declared but /config " + o.field() + " is " + actual);
            }
        }
        return "; " + c.server().engine() + ", request on a " + (virtual ? "virtual" : "platform") + " thread '" + c.requestThread().name() + "'";
    }

    /** A Spring property a target may override, and where /config shows what the running target made of it. */
    private record Override(String property, String field, Function<TargetConfig, Object> actual) {
    }

    private static final List<Override> OVERRIDES = List.of(
            new Override("server.tomcat.threads.max", "server.threads_max", c -> c.server() == null ? null : c.server().threadsMax()),
            new Override("server.tomcat.processor-cache", "server.processor_cache", c -> c.server() == null ? null : c.server().processorCache()),
            new Override("loomflux.db.pool-size", "db_pool.max_size", c -> c.dbPool() == null ? null : c.dbPool().maxSize()),
            new Override("loomflux.http-client.max-connections", "http_client.max_connections",
                    c -> c.httpClient() == null ? null : c.httpClient().maxConnections()),
            new Override(HttpClientLibrary.PROPERTY, "http_client.library", c -> c.httpClient() == null ? null : c.httpClient().library()));

    private void status(String name, String path, int wanted) {
        check(name, path, wanted, r -> {
        });
    }

    private void check(String name, String path, ReplyCheck body) {
        check(name, path, 200, body);
    }

    private void check(String name, String path, int wantedStatus, ReplyCheck body) {
        described(name, path, wantedStatus, r -> {
            body.accept(r);
            return "";
        });
    }

    private void described(String name, String path, DescribedCheck body) {
        described(name, path, 200, body);
    }

    private void described(String name, String path, int wantedStatus, DescribedCheck body) {
        URI uri = target.base().resolve(path);
        String note = "";
        try {
            Http.Reply r;
            try {
                r = Http.get(uri, TIMEOUT);
            } catch (java.net.http.HttpTimeoutException e) {
                // Seen rarely under heavy machine load with JDK 17's pooled client, never reproduced
                // on a fresh connection; the check is retried once there and the table says so.
                r = Http.getOnNewConnection(uri, TIMEOUT);
                note = " (first try timed out after " + TIMEOUT.toSeconds() + " s; passed on a new connection)";
            }
            if (r.status() != wantedStatus) {
                fail(name, "status " + r.status() + ", wanted " + wantedStatus + ": " + abbreviate(r.body()));
                return;
            }
            String more = body.accept(r);
            results.add(new CheckResult(target.spec().name(), name, true, r.elapsedMillis() + " ms" + more + note));
        } catch (Mismatch m) {
            fail(name, m.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(name, "interrupted");
        } catch (Exception e) {
            fail(name, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private void fail(String name, String detail) {
        results.add(new CheckResult(target.spec().name(), name, false, detail));
    }

    private static void expectType(Http.Reply r, String type) {
        expect(r.contentType().startsWith(type), "content-type '" + r.contentType() + "', wanted " + type);
    }

    private static void expect(boolean ok, String detail) {
        if (!ok) {
            throw new Mismatch(detail);
        }
    }

    static String sha256Rounds(int rounds) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] v = "loomflux".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < rounds; i++) {
                v = sha.digest(v);
            }
            return HexFormat.of().formatHex(v);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String quote(String s) {
        return "'" + abbreviate(s) + "'";
    }

    private static String abbreviate(String s) {
        String one = s.replace('\n', ' ');
        return one.length() > 120 ? one.substring(0, 117) + "..." : one;
    }

    @FunctionalInterface
    private interface ReplyCheck {
        void accept(Http.Reply r) throws Exception;
    }

    /** A check whose passing row says more than the time taken. */
    @FunctionalInterface
    private interface DescribedCheck {
        String accept(Http.Reply r) throws Exception;
    }

    private static final class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }
}
