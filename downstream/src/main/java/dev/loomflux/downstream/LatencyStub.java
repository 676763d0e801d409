package dev.loomflux.downstream;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.resources.LoopResources;

/**
 * The latency stub the targets call: {@code GET /delay?ms=MS[&dist=D&p99=P]} answers after a wait
 * drawn from {@link StubDelay} without holding a thread, {@code GET /stats} counts the {@code /delay}
 * requests served. For the lab's tests of flows it also keeps items in memory, as the targets' items API
 * answers: {@code POST /items} creates one (201, its {@code Location} and {@code {"id": N}}),
 * {@code GET}, {@code PUT} and {@code DELETE /items/N} read (200), update (200) and delete (204) it, and
 * answer 404 for an item that is not there; {@code GET /stats/items} counts them ({@code /stats} stays the
 * {@code /delay} count alone).
 */
public final class LatencyStub implements AutoCloseable {
    private static final String NAME = "loomflux-downstream";
    private static final String TEXT = "text/plain; charset=UTF-8";
    private static final String JSON = "application/json";

    private final LongAdder served = new LongAdder();
    private final Items items = new Items();
    /*
     * One event loop per CPU instead of Reactor Netty's default max(CPUs, 4): nothing here blocks, so
     * extra loops only add context switches. Pinned to one core, 1 loop served ~80-100k req/s at 0 ms
     * with p99 < 7 ms where 4 loops served ~50-70k with p99 ~20 ms (docs/downstream.md).
     */
    private final LoopResources loops =
            LoopResources.create("downstream", Runtime.getRuntime().availableProcessors(), true);
    private final DisposableServer server;

    private LatencyStub(String host, int port) {
        try {
            server = HttpServer.create().runOn(loops).host(host).port(port).handle(this::handle).bindNow();
        } catch (RuntimeException e) {
            loops.dispose();
            throw e;
        }
    }

    /** Binds and serves until {@link #close()}; port 0 picks a free port. */
    public static LatencyStub start(String host, int port) {
        return new LatencyStub(host, port);
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.disposeNow();
        // No quiet period: the server is gone, so no task can still arrive (the default waits 2 s).
        loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block();
    }

    private Mono<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        if (req.fullPath().equals("/items") || req.fullPath().startsWith("/items/")) {
            // The body, if any, is read and dropped: the item holds no data.
            return req.receive().then(Mono.defer(() -> {
                Items.Answer a = items.answer(req.method(), req.fullPath());
                if (a.location() != null) {
                    res.header("Location", a.location());
                }
                if (a.body() == null) {
                    return res.status(a.status()).send();
                }
                return send(res, a.status(), JSON, a.body());
            }));
        }
        if (!HttpMethod.GET.equals(req.method())) {
            return send(res, HttpResponseStatus.NOT_FOUND, TEXT, "not found");
        }
        return switch (req.fullPath()) {
            case "/delay" -> delay(req, res);
            case "/stats" -> send(res, HttpResponseStatus.OK, JSON, "{\"requests\":" + served.sum() + "}");
            case "/stats/items" -> send(res, HttpResponseStatus.OK, JSON, "{" + items.stats() + "}");
            default -> send(res, HttpResponseStatus.NOT_FOUND, TEXT, "not found");
        };
    }

    private Mono<Void> delay(HttpServerRequest req, HttpServerResponse res) {
        StubDelay delay;
        try {
            delay = StubDelay.parse(new QueryStringDecoder(req.uri()).parameters());
        } catch (IllegalArgumentException e) {
            return send(res, HttpResponseStatus.BAD_REQUEST, TEXT, e.getMessage());
        }
        int ms = delay.sample(ThreadLocalRandom.current());
        Mono<Void> answer = Mono.defer(() -> {
            served.increment();
            return send(res, HttpResponseStatus.OK, TEXT, "waited " + ms + " ms");
        });
        return ms == 0 ? answer : afterOnEventLoop(req, ms).then(answer);
    }

    /*
     * The timer lives on the connection's own event loop rather than on a Reactor scheduler (Mono.delay):
     * when it fires, the response is written from the thread that owns the channel, so there is no
     * hand-off to a timer thread and back, and no extra thread to wake on a single pinned core.
     */
    private static Mono<Void> afterOnEventLoop(HttpServerRequest req, int ms) {
        return Mono.create(sink -> req.withConnection(c -> {
            var timer = c.channel().eventLoop().schedule(() -> sink.success(), ms, TimeUnit.MILLISECONDS);
            sink.onCancel(() -> timer.cancel(false));
        }));
    }

    private static Mono<Void> send(HttpServerResponse res, HttpResponseStatus status, String type, String body) {
        return res.status(status).header("Content-Type", type).sendString(Mono.just(body)).then();
    }

    record Options(String host, int port) {
        static Options parse(String... args) {
            String host = "127.0.0.1";
            int port = 8090;
            for (int i = 0; i < args.length; i += 2) {
                String option = args[i];
                if (!option.equals("--host") && !option.equals("--port")) {
                    throw new IllegalArgumentException("unknown option '" + option + "'");
                }
                if (i + 1 >= args.length || args[i + 1].isBlank()) {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                if (option.equals("--host")) {
                    host = args[i + 1];
                } else {
                    port = parsePort(args[i + 1]);
                }
            }
            return new Options(host, port);
        }

        private static int parsePort(String raw) {
            try {
                int port = Integer.parseInt(raw);
                if (port >= 0 && port <= 65_535) {
                    return port;
                }
            } catch (NumberFormatException fallThrough) {
                // Same message as out of range.
            }
            throw new IllegalArgumentException("--port must be an integer in 0..65535, got '" + raw + "'");
        }
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(NAME + ": " + e.getMessage() + " (usage: [--host HOST] [--port PORT])");
            System.exit(2);
            return;
        }
        LatencyStub stub;
        try {
            stub = start(options.host(), options.port());
        } catch (RuntimeException e) {
            // The root cause says why ("Address already in use"); the wrapper only repeats the address.
            Throwable why = e;
            while (why.getCause() != null) {
                why = why.getCause();
            }
            String reason = why.getMessage() != null ? why.getMessage() : why.getClass().getSimpleName();
            System.err.println(NAME + ": cannot listen on " + options.host() + ":" + options.port() + ": " + reason);
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(stub::close, NAME + "-shutdown"));
        System.out.println(NAME + " listening on " + options.host() + ":" + stub.port());
        System.out.flush();
        // The event loops are daemon threads: main keeps the JVM alive until the server is disposed.
        stub.server.onDispose().block();
    }
}
