package dev.loomflux.targets;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The client a target calls the downstream with (gateway, chain, mixed), chosen per target with
 * {@value #PROPERTY}. Each name is also what /config reports as http_client.library.
 */
public enum HttpClientLibrary {
    APACHE_HTTPCLIENT5("apache-httpclient5"),
    JDK_HTTPCLIENT("jdk-httpclient"),
    REACTOR_NETTY("reactor-netty");

    public static final String PROPERTY = "loomflux.http-client.library";

    private final String id;

    HttpClientLibrary(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** @throws IllegalArgumentException naming the property and the known values */
    public static HttpClientLibrary of(String id) {
        for (HttpClientLibrary l : values()) {
            if (l.id.equals(id)) {
                return l;
            }
        }
        throw new IllegalArgumentException(PROPERTY + " '" + id + "' is none of " + Arrays.stream(values()).map(HttpClientLibrary::id).collect(Collectors.joining(", ")));
    }
}
