package dev.loomflux.targets.mvc;

import static org.springframework.http.MediaType.APPLICATION_JSON_VALUE;
import static org.springframework.http.MediaType.TEXT_PLAIN_VALUE;

import dev.loomflux.targets.Api;
import dev.loomflux.targets.CpuWork;
import dev.loomflux.targets.Delay;
import dev.loomflux.targets.ItemFields;
import dev.loomflux.targets.MixedRequest;
import dev.loomflux.targets.Param;
import dev.loomflux.targets.TargetConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * The API of docs/api.md in plain blocking style: each request holds its thread (platform or
 * virtual) through every downstream call and query. Parameters arrive as raw strings so
 * {@link Param} and {@link Delay} alone decide what is valid and word the 400.
 */
@RestController
class MvcController {
    private final RestClient downstream;
    private final MvcItemTable table;
    private final MvcConfigReport config;

    MvcController(RestClient downstream, MvcItemTable table, MvcConfigReport config) {
        this.downstream = downstream;
        this.table = table;
        this.config = config;
    }

    @GetMapping(path = "/plaintext", produces = TEXT_PLAIN_VALUE)
    String plaintext() {
        return Api.PLAINTEXT;
    }

    @GetMapping(path = "/json", produces = APPLICATION_JSON_VALUE)
    Api.Message json() {
        return Api.Message.HELLO;
    }

    @GetMapping(path = "/gateway", produces = TEXT_PLAIN_VALUE)
    String gateway(@RequestParam(required = false) String delay, @RequestParam(required = false) String dist,
                   @RequestParam(required = false) String p99) {
        return callDownstream(Delay.parse(delay, dist, p99));
    }

    @GetMapping(path = "/chain", produces = APPLICATION_JSON_VALUE)
    Api.Chain chain(@RequestParam(required = false) String delay, @RequestParam(required = false) String depth,
                    @RequestParam(required = false) String dist, @RequestParam(required = false) String p99) {
        Delay d = Delay.parse(delay, dist, p99);
        int n = d.calls(depth);
        if (n == 0 && d.ms() > 0) {
            pause(d.ms());
        }
        List<String> responses = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            responses.add(callDownstream(d));
        }
        return new Api.Chain(n, d.ms(), responses);
    }

    /** Holds the request's thread: a platform thread stays blocked, a virtual one unmounts. */
    private static void pause(int ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting " + ms + " ms", e);
        }
    }

    @GetMapping(path = "/items", produces = APPLICATION_JSON_VALUE)
    Api.ItemsPage items(@RequestParam(required = false) String page, @RequestParam(required = false) String size) {
        return table.page(Param.PAGE.parse(page), Param.SIZE.parse(size));
    }

    @PostMapping(path = "/items", produces = APPLICATION_JSON_VALUE)
    ResponseEntity<Api.Item> create(@RequestBody(required = false) Map<String, Object> body) {
        Api.Item item = table.create(ItemFields.parse(body));
        return ResponseEntity.created(URI.create(Api.location(item.id()))).body(item);
    }

    @GetMapping(path = "/items/{id}", produces = APPLICATION_JSON_VALUE)
    Api.Item item(@PathVariable String id) {
        return table.one(ItemFields.id(id));
    }

    @PutMapping(path = "/items/{id}", produces = APPLICATION_JSON_VALUE)
    Api.Item update(@PathVariable String id, @RequestBody(required = false) Map<String, Object> body) {
        return table.update(ItemFields.id(id), ItemFields.parse(body));
    }

    @DeleteMapping(path = "/items/{id}")
    ResponseEntity<Void> delete(@PathVariable String id) {
        table.delete(ItemFields.id(id));
        return ResponseEntity.noContent().build();
    }

    @GetMapping(path = "/cpu", produces = TEXT_PLAIN_VALUE)
    String cpu(@RequestParam(required = false) String work) {
        return CpuWork.digest(Param.WORK.parse(work));
    }

    @GetMapping(path = "/mixed", produces = APPLICATION_JSON_VALUE)
    Api.Mixed mixed(@RequestParam(required = false) String work, @RequestParam(required = false) String page,
                    @RequestParam(required = false) String size, @RequestParam(required = false) String delay,
                    @RequestParam(required = false) String dist, @RequestParam(required = false) String p99) {
        MixedRequest m = MixedRequest.parse(work, page, size, delay, dist, p99);
        String digest = CpuWork.digest(m.work());
        Api.ItemsPage items = table.page(m.page(), m.size());
        return new Api.Mixed(digest, items, callDownstream(m.delay()));
    }

    @GetMapping(path = "/config", produces = APPLICATION_JSON_VALUE)
    TargetConfig config() {
        return config.report();
    }

    /** Diagnostic, not a scenario: the first call pins its virtual thread for 100 ms (see SlowClassInit). */
    @GetMapping(path = "/diagnostics/pin", produces = TEXT_PLAIN_VALUE)
    String pin() {
        return SlowClassInit.STATE;
    }

    private String callDownstream(Delay delay) {
        return downstream.get().uri(delay.path()).retrieve().body(String.class);
    }
}
