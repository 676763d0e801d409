package dev.loomflux.targets.webflux;

import dev.loomflux.targets.RuntimeFacts;
import io.netty.channel.ChannelOption;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;
import org.springframework.stereotype.Component;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientConfig;
import reactor.netty.resources.LoopResources;

/**
 * The body of GET /config. Values come from the live client and pool where they expose them;
 * the rest (pending-acquire timeouts, the pool's min idle) only exist in the settings they were built from.
 */
@Component
class ConfigReport {
    private final String target;
    private final String downstreamUrl;
    private final HttpClient httpClient;
    private final HttpClientProperties httpProps;
    private final ConnectionPool pool;
    private final R2dbcProperties.Pool poolProps;

    ConfigReport(@Value("${loomflux.target-name}") String target, @Value("${loomflux.downstream.url}") String downstreamUrl,
                 HttpClient downstreamHttpClient, HttpClientProperties httpProps,
                 ConnectionPool pool, R2dbcProperties r2dbcProps) {
        this.target = target;
        this.downstreamUrl = downstreamUrl;
        this.httpClient = downstreamHttpClient;
        this.httpProps = httpProps;
        this.pool = pool;
        this.poolProps = r2dbcProps.getPool();
    }

    /** Called on the request thread, so request_thread names the event loop that served it. */
    Map<String, Object> report() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", target);
        m.put("server", server());
        m.put("request_thread", RuntimeFacts.requestThread());
        m.put("http_client", httpClient());
        m.put("db_pool", dbPool());
        m.put("downstream_url", downstreamUrl);
        m.put("jvm", RuntimeFacts.jvm());
        return m;
    }

    private static Map<String, Object> server() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("engine", "reactor-netty");
        // The server runs on Reactor Netty's global loop resources, sized by this constant
        // (-Dreactor.netty.ioWorkerCount, else max(available processors, 4)).
        m.put("event_loops", LoopResources.DEFAULT_IO_WORKER_COUNT);
        m.put("virtual_threads", false);
        return m;
    }

    private Map<String, Object> httpClient() {
        HttpClientConfig live = httpClient.configuration();
        int maxConnections = live.connectionProvider().maxConnections();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("library", "reactor-netty");
        m.put("max_connections", maxConnections);
        // Reactor Netty pools per remote address with the same limit, so one route gets all of them.
        m.put("max_per_route", maxConnections);
        m.put("connect_timeout_ms", live.options().get(ChannelOption.CONNECT_TIMEOUT_MILLIS));
        m.put("response_timeout_ms", live.responseTimeout().toMillis());
        m.put("acquire_timeout_ms", httpProps.acquireTimeout().toMillis());
        return m;
    }

    private Map<String, Object> dbPool() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("library", "r2dbc-pool");
        m.put("max_size", pool.getMetrics().map(PoolMetrics::getMaxAllocatedSize).orElse(poolProps.getMaxSize()));
        m.put("min_idle", poolProps.getMinIdle());
        m.put("acquire_timeout_ms", poolProps.getMaxAcquireTime().toMillis());
        return m;
    }
}
