package dev.loomflux.targets.webflux;

import dev.loomflux.targets.HttpClientLibrary;
import dev.loomflux.targets.ReactorNettyClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.netty.http.client.HttpClient;

/**
 * WebClient on Reactor Netty with every pool limit and timeout set explicitly from the shared
 * settings, so it is sized like the MVC targets' clients rather than by library defaults. Reactor
 * Netty is the only library here: the other two would need a permit limiter written for reactive
 * streams to hold their connections to the shared cap (docs/api.md, "Downstream client").
 */
@Configuration(proxyBeanMethods = false)
class WebfluxDownstreamConfig {

    @Bean
    HttpClient downstreamHttpClient(HttpClientProperties props) {
        if (HttpClientLibrary.of(props.library()) != HttpClientLibrary.REACTOR_NETTY) {
            throw new IllegalArgumentException(HttpClientLibrary.PROPERTY + " '" + props.library() + "': the webflux target calls with "
                    + HttpClientLibrary.REACTOR_NETTY.id() + " only");
        }
        return ReactorNettyClient.pooled(props.maxConnections(), props.connectTimeout(), props.responseTimeout(), props.acquireTimeout());
    }

    @Bean
    WebClient downstream(WebClient.Builder builder, HttpClient downstreamHttpClient,
                         @Value("${loomflux.downstream.url}") String url) {
        return builder.clientConnector(new ReactorClientHttpConnector(downstreamHttpClient)).baseUrl(url).build();
    }
}
