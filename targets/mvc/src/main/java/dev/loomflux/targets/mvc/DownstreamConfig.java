package dev.loomflux.targets.mvc;

import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The blocking client for the downstream stub. Built by hand rather than through Boot's
 * auto-detection so the pool size and timeouts are exactly the shared ones: Apache
 * HttpClient 5 would otherwise allow only 25 connections, 5 per route.
 */
@Configuration(proxyBeanMethods = false)
class DownstreamConfig {

    @Bean
    PoolingHttpClientConnectionManager downstreamConnectionPool(LoomfluxProperties props) {
        LoomfluxProperties.Http http = props.httpClient();
        return PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(http.maxConnections())
                .setMaxConnPerRoute(http.maxConnections())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(http.connectTimeout()))
                        .build())
                .build();
    }

    @Bean
    CloseableHttpClient downstreamHttpClient(PoolingHttpClientConnectionManager pool, LoomfluxProperties props) {
        LoomfluxProperties.Http http = props.httpClient();
        return HttpClients.custom()
                .setConnectionManager(pool)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(http.acquireTimeout()))
                        .setResponseTimeout(Timeout.of(http.responseTimeout()))
                        .build())
                .build();
    }

    @Bean
    RestClient downstream(RestClient.Builder builder, CloseableHttpClient httpClient, LoomfluxProperties props) {
        return builder
                .requestFactory(new HttpComponentsClientHttpRequestFactory(httpClient))
                .baseUrl(props.downstream().url())
                .build();
    }
}
