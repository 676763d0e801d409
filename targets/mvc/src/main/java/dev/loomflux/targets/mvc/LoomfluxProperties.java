package dev.loomflux.targets.mvc;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The loomflux.* settings, mostly from the shared loomflux-fairness.properties. */
@ConfigurationProperties("loomflux")
public record LoomfluxProperties(String targetName, DownstreamSettings downstream, HttpClientSettings httpClient, Db db) {

    public record DownstreamSettings(String url) {
    }

    public record HttpClientSettings(String library, int maxConnections, Duration connectTimeout, Duration responseTimeout, Duration acquireTimeout) {
    }

    public record Db(String jdbcUrl, String username, String password, String schema, int poolSize, Duration acquireTimeout) {
    }
}
