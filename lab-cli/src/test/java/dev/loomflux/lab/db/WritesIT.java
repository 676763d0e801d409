package dev.loomflux.lab.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.Home;
import dev.loomflux.lab.jdk.JdkLocator;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.Placement;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.Targets;
import dev.loomflux.targets.TargetConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 46: every successful write is in the database. Targets started as the lab starts them, on a real
 * PostgreSQL, take creates, updates and deletes from several clients at once; the rows then counted in
 * the target's copy of item equal the seeded ones plus the creates minus the deletes, exactly. mvc writes
 * over JDBC and HikariCP, webflux over R2DBC, webflux-vt over JDBC on virtual threads under WebFlux.
 * A bad body or id is refused with the one-line text/plain 400 the targets give any bad parameter, and writes nothing.
 */
@Tag("slow") // ./check slow, in CI after ./check
class WritesIT extends OnePostgres {
    private static final int CREATES = 120;
    private static final int UPDATES = 40;
    /** Half of them of created rows, half of seeded ones. */
    private static final int DELETES = 30;
    private static final int CLIENTS = 8;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();


    /** One JVM per target for both checks: starting one takes about 10 s. */
    @ParameterizedTest
    @ValueSource(strings = {"mvc", "webflux", "webflux-vt"})
    void everySuccessfulWriteIsInTheTargetsCopyAndNoRefusedOneIs(String name) throws Exception {
        LaunchSettings settings = new LaunchSettings(JdkLocator.system().locate(null), "127.0.0.1", LaunchSettings.DEFAULT_HEAP);
        try (RunningTarget t = RunningTarget.start(processes, Home.detect(), new Targets().all().get(name), settings, Placement.ANYWHERE,
                URI.create("http://127.0.0.1:9"), db, dir)) {
            TargetConfig config = Json.read(send(t.base(), "GET", "/config", null).body(), TargetConfig.class);
            assertEquals(ItemCopies.schemaOf(name), config.dbPool().schema(), "the pool's schema: the target's own copy");
            assertEquals(10, config.dbPool().maxSize());
            rowsAreTheSeededOnesPlusCreatesMinusDeletes(t.base(), name);
            db.resetCopy(name);
            aBadBodyOrIdIsA400InOneLineAndWritesNothing(t.base(), name);
        }
    }

    private static void rowsAreTheSeededOnesPlusCreatesMinusDeletes(URI base, String name) throws Exception {
        List<Long> created = new ArrayList<>();
        for (JsonNode item : all(CREATES, i -> {
            HttpResponse<String> r = send(base, "POST", "/items", "{\"name\":\"new-" + i + "\",\"priceCents\":" + i + "}");
            assertEquals(201, r.statusCode(), r.body());
            JsonNode body = Json.read(r.body(), JsonNode.class);
            assertEquals("/items/" + body.path("id").asLong(), r.headers().firstValue("Location").orElse(null));
            assertEquals("new-" + i, body.path("name").asText());
            assertEquals(i, body.path("priceCents").asLong());
            return body;
        })) {
            assertTrue(item.path("id").asLong() > Seeder.ROWS, "new ids start above the seeded rows: " + item);
            created.add(item.path("id").asLong());
        }
        assertEquals(CREATES, created.stream().distinct().count(), "every create got an id of its own");

        all(UPDATES, i -> {
            long id = i % 2 == 0 ? created.get(i) : i + 1;
            HttpResponse<String> r = send(base, "PUT", "/items/" + id, "{\"name\":\"changed-" + i + "\",\"priceCents\":7}");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("{\"id\":" + id + ",\"name\":\"changed-" + i + "\",\"priceCents\":7}", r.body());
            return id;
        });
        List<Long> deleted = all(DELETES, i -> {
            long id = i % 2 == 0 ? created.get(created.size() - 1 - i) : Seeder.ROWS - i;
            HttpResponse<String> r = send(base, "DELETE", "/items/" + id, null);
            assertEquals(204, r.statusCode(), r.body());
            return id;
        });
        assertEquals(Seeder.ROWS + CREATES - DELETES, db.copyRows(name));

        long updated = created.get(0);
        assertEquals("{\"id\":" + updated + ",\"name\":\"changed-0\",\"priceCents\":7}", send(base, "GET", "/items/" + updated, null).body());
        long gone = deleted.get(0);
        assertEquals(404, send(base, "GET", "/items/" + gone, null).statusCode());
        assertEquals(404, send(base, "PUT", "/items/" + gone, "{\"name\":\"x\",\"priceCents\":1}").statusCode());
        assertEquals(404, send(base, "DELETE", "/items/" + gone, null).statusCode());
        assertEquals(Seeder.ROWS + CREATES - DELETES, db.copyRows(name), "a write refused with 404 changes nothing");
    }

    /** Run right after a reset: the target's pooled connections find the new copy, and its identity starts again. */
    private static void aBadBodyOrIdIsA400InOneLineAndWritesNothing(URI base, String name) throws Exception {
        String longest = "n".repeat(200);
        HttpResponse<String> first = send(base, "POST", "/items", "{\"name\":\"" + longest + "\",\"priceCents\":0}");
        assertEquals(201, first.statusCode(), first.body());
        assertEquals("/items/" + (Seeder.ROWS + 1), first.headers().firstValue("Location").orElse(null));
        String badName = "body field 'name' must be a string of 1..200 characters, not all blank";
        String badPrice = "body field 'priceCents' must be an integer in 0..9223372036854775807";
        String notAnObject = "body must be a JSON object with 'name' and 'priceCents'";
        String badId = "item id must be an integer in 1..9223372036854775807";
        for (String[] bad : new String[][] {
                {"POST", "/items", "{\"priceCents\":1}", badName},
                {"POST", "/items", "{\"name\":\" \",\"priceCents\":1}", badName},
                {"POST", "/items", "{\"name\":\"" + longest + "n\",\"priceCents\":1}", badName},
                {"POST", "/items", "{\"name\":\"a\"}", badPrice},
                {"POST", "/items", "{\"name\":\"a\",\"priceCents\":\"5\"}", badPrice},
                {"POST", "/items", "{\"name\":\"a\",\"priceCents\":1.5}", badPrice},
                {"POST", "/items", "{\"name\":\"a\",\"priceCents\":-1}", badPrice},
                {"POST", "/items", "not json", notAnObject},
                {"POST", "/items", "[1]", notAnObject},
                {"POST", "/items", "", notAnObject},
                {"PUT", "/items/1", "{}", badName},
                {"PUT", "/items/x", "{\"name\":\"a\",\"priceCents\":1}", badId},
                {"GET", "/items/0", null, badId},
                {"DELETE", "/items/-3", null, badId}}) {
            HttpResponse<String> r = send(base, bad[0], bad[1], bad[2]);
            String what = bad[0] + " " + bad[1] + " " + bad[2];
            assertEquals(400, r.statusCode(), what + ": " + r.body());
            assertEquals(bad[3], r.body(), what);
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), what);
        }
        assertEquals(Seeder.ROWS + 1, db.copyRows(name));
        assertEquals("{\"id\":1,\"name\":\"item-00001\",\"priceCents\":7919}", send(base, "GET", "/items/1", null).body());
    }

    private interface Step<T> {
        T run(int i) throws Exception;
    }

    /** Steps 0..n-1 from {@link #CLIENTS} clients at once, their results in step order. */
    private static <T> List<T> all(int n, Step<T> step) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(clients.submit((Callable<T>) () -> step.run(index)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get());
            }
            return results;
        } finally {
            clients.shutdown();
        }
    }

    private static HttpResponse<String> send(URI base, String method, String path, String json) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10));
        if (json != null) {
            req.header("Content-Type", "application/json");
        }
        req.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        return HTTP.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }
}
