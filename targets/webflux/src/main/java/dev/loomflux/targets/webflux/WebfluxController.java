package dev.loomflux.targets.webflux;

import dev.loomflux.targets.Api;
import dev.loomflux.targets.CpuWork;
import dev.loomflux.targets.Delay;
import dev.loomflux.targets.ItemFields;
import dev.loomflux.targets.MixedRequest;
import dev.loomflux.targets.Param;
import dev.loomflux.targets.TargetConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The API of docs/api.md. Handlers run on a Reactor Netty event loop and never block it; I/O is
 * returned as a Mono. Parameters arrive as raw strings so that Param and Delay produce the 400
 * message.
 */
@RestController
class WebfluxController {
    private final WebClient downstream;
    private final WebfluxItemTable table;
    private final WebfluxConfigReport config;

    WebfluxController(WebClient downstream, WebfluxItemTable table, WebfluxConfigReport config) {
        this.downstream = downstream;
        this.table = table;
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
    Mono<String> gateway(@RequestParam(required = false) String delay, @RequestParam(required = false) String dist,
                         @RequestParam(required = false) String p99) {
        return callDownstream(Delay.parse(delay, dist, p99));
    }

    @GetMapping(path = "/chain", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Api.Chain> chain(@RequestParam(required = false) String delay, @RequestParam(required = false) String depth,
                          @RequestParam(required = false) String dist, @RequestParam(required = false) String p99) {
        Delay d = Delay.parse(delay, dist, p99);
        int n = d.calls(depth);
        if (n == 0) {
            // A timer, no thread held: Reactor's parallel scheduler resumes the request when it fires.
            Api.Chain done = new Api.Chain(0, d.ms(), List.of());
            return d.ms() == 0 ? Mono.just(done) : Mono.delay(Duration.ofMillis(d.ms())).thenReturn(done);
        }
        return Flux.range(0, n)
                .concatMap(i -> callDownstream(d))
                .collectList()
                .map(responses -> new Api.Chain(n, d.ms(), responses));
    }

    @GetMapping(path = "/items", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Api.ItemsPage> items(@RequestParam(required = false) String page, @RequestParam(required = false) String size) {
        return table.page(Param.PAGE.parse(page), Param.SIZE.parse(size));
    }

    /** The body is decoded before the handler runs; a body that is not a JSON object never reaches it (FailureResponses). */
    @PostMapping(path = "/items", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Api.Item>> create(@RequestBody(required = false) Map<String, Object> body) {
        return table.create(ItemFields.parse(body)).map(item -> ResponseEntity.created(URI.create(Api.location(item.id()))).body(item));
    }

    @GetMapping(path = "/items/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Api.Item> item(@PathVariable String id) {
        return table.one(ItemFields.id(id));
    }

    @PutMapping(path = "/items/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Api.Item> update(@PathVariable String id, @RequestBody(required = false) Map<String, Object> body) {
        return table.update(ItemFields.id(id), ItemFields.parse(body));
    }

    @DeleteMapping(path = "/items/{id}")
    Mono<ResponseEntity<Void>> delete(@PathVariable String id) {
        return table.delete(ItemFields.id(id)).thenReturn(ResponseEntity.noContent().build());
    }

    /** Deliberately computed on the event loop, as a naive WebFlux app does: this is what /cpu measures. */
    @GetMapping(path = "/cpu", produces = MediaType.TEXT_PLAIN_VALUE)
    String cpu(@RequestParam(required = false) String work) {
        return CpuWork.digest(Param.WORK.parse(work));
    }

    /**
     * The three steps in the MVC target's order, one after another (not zipped, which would overlap
     * the query and the call and so measure less work); the digest on the event loop, as /cpu does.
     */
    @GetMapping(path = "/mixed", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Api.Mixed> mixed(@RequestParam(required = false) String work, @RequestParam(required = false) String page,
                          @RequestParam(required = false) String size, @RequestParam(required = false) String delay,
                          @RequestParam(required = false) String dist, @RequestParam(required = false) String p99) {
        MixedRequest m = MixedRequest.parse(work, page, size, delay, dist, p99);
        String digest = CpuWork.digest(m.work());
        return table.page(m.page(), m.size()).flatMap(items -> callDownstream(m.delay()).map(body -> new Api.Mixed(digest, items, body)));
    }

    @GetMapping(path = "/config", produces = MediaType.APPLICATION_JSON_VALUE)
    TargetConfig config() {
        return config.report();
    }

    private Mono<String> callDownstream(Delay delay) {
        return downstream.get().uri(delay.path()).retrieve().bodyToMono(String.class);
    }
}
