package dev.loomflux.targets.webflux;

import io.netty.channel.ChannelOption;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * WebClient on Reactor Netty with every pool limit and timeout set explicitly from the shared
 * settings, so it is sized like the MVC target's Apache HttpClient rather than by library defaults.
 */
@Configuration(proxyBeanMethods = false)
class DownstreamConfig {

    @Bean
    HttpClient downstreamHttpClient(HttpClientProperties props) {
        ConnectionProvider pool = ConnectionProvider.builder("downstream")
                .maxConnections(props.maxConnections())
                // Reactor Netty otherwise fails an acquire once 2 * maxConnections are queued;
                // Apache HttpClient has no such cap, so only the acquire timeout limits waiting here too.
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(props.acquireTimeout())
                .build();
        return HttpClient.create(pool)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(props.connectTimeout().toMillis()))
                .responseTimeout(props.responseTimeout());
    }

    @Bean
    WebClient downstream(WebClient.Builder builder, HttpClient downstreamHttpClient,
                         @Value("${loomflux.downstream.url}") String url) {
        return builder.clientConnector(new ReactorClientHttpConnector(downstreamHttpClient)).baseUrl(url).build();
    }
}
