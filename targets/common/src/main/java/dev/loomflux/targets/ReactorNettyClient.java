package dev.loomflux.targets;

import io.netty.channel.ChannelOption;
import java.time.Duration;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientConfig;
import reactor.netty.resources.ConnectionProvider;

/**
 * Reactor Netty's client as every target builds it, under WebClient (webflux) or RestClient (the MVC
 * jar's targets with reactor-netty chosen): every pool limit and timeout set from the shared settings.
 */
public final class ReactorNettyClient {
    private ReactorNettyClient() {
    }

    public static HttpClient pooled(int maxConnections, Duration connectTimeout, Duration responseTimeout, Duration acquireTimeout) {
        ConnectionProvider pool = ConnectionProvider.builder("downstream")
                .maxConnections(maxConnections)
                // Reactor Netty otherwise fails an acquire once 2 * maxConnections are queued;
                // Apache HttpClient has no such cap, so only the acquire timeout limits waiting here too.
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(acquireTimeout)
                .build();
        return HttpClient.create(pool)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(connectTimeout.toMillis()))
                .responseTimeout(responseTimeout);
    }

    /** Read from the live client; the pending-acquire timeout exists only in the settings it was built from. */
    public static TargetConfig.HttpClientPool describe(HttpClient client, Duration acquireTimeout) {
        HttpClientConfig live = client.configuration();
        int maxConnections = live.connectionProvider().maxConnections();
        // Reactor Netty pools per remote address with the same limit, so one route gets all of them.
        return new TargetConfig.HttpClientPool(HttpClientLibrary.REACTOR_NETTY.id(), maxConnections, maxConnections,
                (Integer) live.options().get(ChannelOption.CONNECT_TIMEOUT_MILLIS), live.responseTimeout().toMillis(), acquireTimeout.toMillis());
    }
}
