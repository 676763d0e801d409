package dev.loomflux.targets.webflux;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The outbound HTTP client limits shared with the MVC target (loomflux-fairness.properties). */
@ConfigurationProperties("loomflux.http-client")
record HttpClientProperties(String library, int maxConnections, Duration connectTimeout, Duration responseTimeout,
                            Duration acquireTimeout) {
}
