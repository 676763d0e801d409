package dev.loomflux.targets.webflux;

import dev.loomflux.targets.ReactorNettyClient;
import dev.loomflux.targets.TargetConfig;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;
import org.springframework.stereotype.Component;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.LoopResources;

/**
 * The body of GET /config. Values come from the live client and pool where they expose them;
 * the rest (pending-acquire timeouts, the pool's min idle) only exist in the settings they were built from.
 */
@Component
class WebfluxConfigReport {
    private final String target;
    private final String downstreamUrl;
    private final HttpClient httpClient;
    private final HttpClientProperties httpProps;
    private final ConnectionPool pool;
    private final R2dbcProperties.Pool poolProps;
    private final String schema;

    WebfluxConfigReport(@Value("${loomflux.target-name}") String target, @Value("${loomflux.downstream.url}") String downstreamUrl,
                 HttpClient downstreamHttpClient, HttpClientProperties httpProps,
                 ConnectionPool pool, R2dbcProperties r2dbcProps) {
        this.target = target;
        this.downstreamUrl = downstreamUrl;
        this.httpClient = downstreamHttpClient;
        this.httpProps = httpProps;
        this.pool = pool;
        this.poolProps = r2dbcProps.getPool();
        this.schema = r2dbcProps.getProperties().get("schema");
    }

    /** Called on the request thread, so request_thread names the event loop that served it. */
    TargetConfig report() {
        return new TargetConfig(target,
                // The server runs on Reactor Netty's global loop resources, sized by this constant
                // (-Dreactor.netty.ioWorkerCount, else max(available processors, 4)).
                new TargetConfig.Server("reactor-netty", null, null, LoopResources.DEFAULT_IO_WORKER_COUNT, false),
                TargetConfig.RequestThread.current(),
                ReactorNettyClient.describe(httpClient, httpProps.acquireTimeout()),
                new TargetConfig.DbPool("r2dbc-pool", pool.getMetrics().map(PoolMetrics::getMaxAllocatedSize).orElse(poolProps.getMaxSize()),
                        poolProps.getMinIdle(), poolProps.getMaxAcquireTime().toMillis(), schema),
                downstreamUrl, TargetConfig.Jvm.current());
    }
}
