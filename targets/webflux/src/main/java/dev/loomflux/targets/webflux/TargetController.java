package dev.loomflux.targets.webflux;

import dev.loomflux.targets.Api;
import dev.loomflux.targets.CpuWork;
import dev.loomflux.targets.Param;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The API of docs/api.md. Handlers run on a Reactor Netty event loop and never block it; I/O is
 * returned as a Mono. Parameters arrive as raw strings so that Param produces the 400 message.
 */
@RestController
class TargetController {
    private final WebClient downstream;
    private final DatabaseClient db;
    private final ConfigReport config;

    TargetController(WebClient downstream, DatabaseClient db, ConfigReport config) {
        this.downstream = downstream;
        this.db = db;
        this.config = config;
    }

    @GetMapping(path = "/plaintext", produces = MediaType.TEXT_PLAIN_VALUE)
    String plaintext() {
        return Api.PLAINTEXT;
    }

    @GetMapping(path = "/json", produces = MediaType.APPLICATION_JSON_VALUE)
    Api.Message json() {
        return Api.Message.HELLO;
    }

    @GetMapping(path = "/gateway", produces = MediaType.TEXT_PLAIN_VALUE)
    Mono<String> gateway(@RequestParam(required = false) String delay) {
        return callDownstream(Param.DELAY.parse(delay));
    }

    @GetMapping(path = "/chain", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Api.Chain> chain(@RequestParam(required = false) String delay, @RequestParam(required = false) String depth) {
        int ms = Param.DELAY.parse(delay);
        int n = Param.DEPTH.parse(depth);
        return Flux.range(0, n)
                .concatMap(i -> callDownstream(ms))
                .collectList()
                .map(responses -> new Api.Chain(n, ms, responses));
    }

    @GetMapping(path = "/items", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Api.ItemsPage> items(@RequestParam(required = false) String page, @RequestParam(required = false) String size) {
        int p = Param.PAGE.parse(page);
        int s = Param.SIZE.parse(size);
        return db.sql(Api.ITEMS_SQL)
                .bind(0, (long) s)
                .bind(1, Api.offset(p, s))
                .map(row -> new Api.Item(row.get("id", Long.class), row.get("name", String.class),
                        row.get("price_cents", Long.class)))
                .all()
                .collectList()
                .map(items -> new Api.ItemsPage(p, s, items));
    }

    /** Deliberately computed on the event loop, as a naive WebFlux app does: this is what /cpu measures. */
    @GetMapping(path = "/cpu", produces = MediaType.TEXT_PLAIN_VALUE)
    String cpu(@RequestParam(required = false) String work) {
        return CpuWork.digest(Param.WORK.parse(work));
    }

    @GetMapping(path = "/config", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> config() {
        return config.report();
    }

    private Mono<String> callDownstream(int ms) {
        return downstream.get()
                .uri(uri -> uri.path("/delay").queryParam("ms", ms).build())
                .retrieve()
                .bodyToMono(String.class);
    }
}
