package dev.loomflux.lab.driver;

import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.LoadProfile;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * One load test for the driver: GET {@code base + path} over HTTP/1.1 keep-alive, offered as
 * {@code profile} describes; or, with a {@code mix}, each user's iteration one of its flows.
 *
 * @param base           the target, {@code http://host:port}; a path in it prefixes {@code path}
 * @param path           request path with query string, e.g. {@code /gateway?delay=20}
 * @param profile        how the load is offered
 * @param threads        Hyperfoil event loops, one per CPU the driver may use
 * @param requestTimeout a request without a response after this long counts as a timeout error
 * @param mix            the flows a user's iterations run (their paths are under the base's path too); null:
 *                       each iteration is one GET of {@code path}
 */
public record LoadSpec(URI base, String path, LoadProfile profile, int threads, Duration requestTimeout, Mix mix) {
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    public LoadSpec {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        // The targets speak plain HTTP; Hyperfoil's TLS setup is never exercised by the lab.
        if (!"http".equals(base.getScheme()) || base.getHost() == null) {
            throw new IllegalArgumentException("base must be http://host[:port], not " + base);
        }
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with '/': " + path);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, not " + threads);
        }
        if (requestTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("requestTimeout must be at least 1 ms, not " + requestTimeout);
        }
    }

    public LoadSpec(URI base, String path, LoadProfile profile, int threads, Duration requestTimeout) {
        this(base, path, profile, threads, requestTimeout, null);
    }

    public LoadSpec(URI base, String path, LoadProfile profile, int threads) {
        this(base, path, profile, threads, DEFAULT_REQUEST_TIMEOUT);
    }

    /** The same load under another profile, e.g. a warmup's. */
    public LoadSpec withProfile(LoadProfile other) {
        return new LoadSpec(base, path, other, threads, requestTimeout, mix);
    }

    /** Scheme, host and port: Hyperfoil takes the connection target without a path. */
    public String authority() {
        int port = base.getPort() == -1 ? 80 : base.getPort();
        return base.getScheme() + "://" + base.getHost() + ":" + port;
    }

    /** The path on the wire: the base's path, if any, followed by {@code path}. */
    public String requestPath() {
        return onWire(path);
    }

    /** A path (or a step's path template) on the wire: the base's path, if any, followed by it. */
    public String onWire(String relative) {
        String prefix = base.getRawPath() == null ? "" : base.getRawPath();
        if (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        return prefix + relative;
    }
}
