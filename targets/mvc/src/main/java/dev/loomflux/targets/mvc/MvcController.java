package dev.loomflux.targets.mvc;

import static org.springframework.http.MediaType.APPLICATION_JSON_VALUE;
import static org.springframework.http.MediaType.TEXT_PLAIN_VALUE;

import dev.loomflux.targets.Api;
import dev.loomflux.targets.CpuWork;
import dev.loomflux.targets.Delay;
import dev.loomflux.targets.MixedRequest;
import dev.loomflux.targets.Param;
import dev.loomflux.targets.TargetConfig;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
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
    private final JdbcClient jdbc;
    private final MvcConfigReport config;

    MvcController(RestClient downstream, JdbcClient jdbc, MvcConfigReport config) {
        this.downstream = downstream;
        this.jdbc = jdbc;
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
        return queryItems(Param.PAGE.parse(page), Param.SIZE.parse(size));
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
        Api.ItemsPage items = queryItems(m.page(), m.size());
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

    private Api.ItemsPage queryItems(int page, int size) {
        List<Api.Item> items = jdbc.sql(Api.ITEMS_SQL_JDBC)
                .params(size, Api.offset(page, size))
                .query((rs, row) -> new Api.Item(rs.getLong(1), rs.getString(2), rs.getLong(3)))
                .list();
        return new Api.ItemsPage(page, size, items);
    }

    private String callDownstream(Delay delay) {
        return downstream.get().uri(delay.path()).retrieve().body(String.class);
    }
}
