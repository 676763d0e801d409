package dev.loomflux.targets.mvc;

import dev.loomflux.targets.HttpClientLibrary;
import dev.loomflux.targets.ReactorNettyClient;
import dev.loomflux.targets.TargetConfig;
import java.net.http.HttpClient;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.InterceptingClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The blocking client for the downstream stub, on the library loomflux.http-client.library names. Each
 * is built by hand rather than through Boot's auto-detection so the pool size and timeouts are exactly
 * the shared ones: Apache HttpClient 5 would otherwise allow only 25 connections, 5 per route, and
 * RestClient would pick Reactor Netty whenever it is on the classpath (it is, for webflux-vt).
 */
@Configuration(proxyBeanMethods = false)
class MvcDownstreamConfig {

    /** A request factory, and /config's account of its pool read back from the live client. */
    record Client(ClientHttpRequestFactory factory, Supplier<TargetConfig.HttpClientPool> pool, AutoCloseable resources) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            resources.close();
        }
    }

    @Bean
    Client downstreamClient(LoomfluxProperties props) {
        LoomfluxProperties.HttpClientSettings http = props.httpClient();
        return switch (HttpClientLibrary.of(http.library())) {
            case APACHE_HTTPCLIENT5 -> apache(http);
            case JDK_HTTPCLIENT -> jdk(http);
            case REACTOR_NETTY -> reactorNetty(http);
        };
    }

    @Bean
    RestClient downstream(RestClient.Builder builder, Client client, LoomfluxProperties props) {
        return builder.requestFactory(client.factory()).baseUrl(props.downstream().url()).build();
    }

    private static Client apache(LoomfluxProperties.HttpClientSettings http) {
        PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(http.maxConnections())
                .setMaxConnPerRoute(http.maxConnections())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(http.connectTimeout()))
                        .build())
                .build();
        RequestConfig requests = RequestConfig.custom()
                .setConnectionRequestTimeout(Timeout.of(http.acquireTimeout()))
                .setResponseTimeout(Timeout.of(http.responseTimeout()))
                .build();
        CloseableHttpClient client = HttpClients.custom().setConnectionManager(pool).setDefaultRequestConfig(requests).build();
        // The connect timeout lives in a ConnectionConfig the pool does not expose: that one value is the configured one.
        return new Client(new HttpComponentsClientHttpRequestFactory(client),
                () -> new TargetConfig.HttpClientPool(HttpClientLibrary.APACHE_HTTPCLIENT5.id(), pool.getMaxTotal(), pool.getDefaultMaxPerRoute(),
                        http.connectTimeout().toMillis(), requests.getResponseTimeout().toMilliseconds(),
                        requests.getConnectionRequestTimeout().toMilliseconds()),
                client);
    }

    private static Client jdk(LoomfluxProperties.HttpClientSettings http) {
        // HTTP/1.1 as the other two speak it: on HTTP_2, its default, the JDK client asks every new
        // plain-text connection to upgrade to h2c.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(http.connectTimeout()).build();
        JdkClientHttpRequestFactory jdk = new JdkClientHttpRequestFactory(client);
        jdk.setReadTimeout(http.responseTimeout());
        InFlightLimit limit = new InFlightLimit(http.maxConnections(), http.acquireTimeout());
        // The read timeout is kept inside the factory, which does not expose it: that one value is the configured one.
        return new Client(new InterceptingClientHttpRequestFactory(jdk, List.of(limit)),
                () -> new TargetConfig.HttpClientPool(HttpClientLibrary.JDK_HTTPCLIENT.id(), limit.size(), limit.size(),
                        client.connectTimeout().orElseThrow().toMillis(), http.responseTimeout().toMillis(), limit.acquireTimeout().toMillis()),
                // Java 17's HttpClient has no close(); its threads stop with the JVM.
                () -> { });
    }

    private static Client reactorNetty(LoomfluxProperties.HttpClientSettings http) {
        reactor.netty.http.client.HttpClient client = ReactorNettyClient.pooled(http.maxConnections(), http.connectTimeout(), http.responseTimeout(),
                http.acquireTimeout());
        return new Client(new ReactorClientHttpRequestFactory(client), () -> ReactorNettyClient.describe(client, http.acquireTimeout()),
                () -> client.configuration().connectionProvider().dispose());
    }
}
