package dev.loomflux.lab.driver.hyperfoil;

import dev.loomflux.lab.driver.Reconnections;
import io.hyperfoil.api.config.Name;
import io.hyperfoil.api.connection.Connection;
import io.hyperfoil.http.api.HeaderHandler;
import io.hyperfoil.http.api.HttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.util.AsciiString;

/**
 * A response with {@code Connection: close} ends its connection (RFC 9112 section 9.6): the client sends
 * nothing more on it and opens a new one, as browsers and wrk do. Hyperfoil 0.25.2 does not read that
 * header: it hands the connection back to its pool after the response, the next request can be written on
 * it before the server's FIN arrives, and that request then fails as a connection error (a Tomcat target
 * with {@code max-keep-alive-requests=100} showed about one error per 100 requests). This handler marks
 * the connection closed as soon as the header is read, so that the pool neither takes it back nor hands it
 * out again, closes it once the response is complete, and counts one {@link Reconnections reconnection}
 * under the request's second; the pool opens a connection in its place when the old one has closed.
 */
public final class ConnectionClose implements HeaderHandler {
    /** The handler's name in the benchmark's YAML. */
    static final String NAME = "loomfluxConnectionClose";
    private static final AsciiString CLOSE = AsciiString.of("close");

    @Override
    public void handleHeader(HttpRequest request, CharSequence header, CharSequence value) {
        if (AsciiString.contentEqualsIgnoreCase(header, HttpHeaderNames.CONNECTION) && closes(value)) {
            request.connection().setClosed();
            request.statistics().update(Reconnections.KEY, request.startTimestampMillis(), Reconnections::new, Reconnections::increment, 1);
        }
    }

    /**
     * Runs when the response is complete, while the request still holds its connection: the close is queued on the
     * connection's event loop, so that it happens after Hyperfoil has released the request.
     */
    @Override
    public void afterHeaders(HttpRequest request) {
        Connection connection = request.connection();
        if (connection.isClosed()) {
            connection.context().executor().execute(connection::close);
        }
    }

    /** Whether a {@code Connection} header's value, a comma-separated list of options, holds {@code close}. */
    static boolean closes(CharSequence value) {
        int from = 0;
        for (int i = 0; i <= value.length(); i++) {
            if (i == value.length() || value.charAt(i) == ',') {
                if (AsciiString.contentEqualsIgnoreCase(AsciiString.of(value.subSequence(from, i)).trim(), CLOSE)) {
                    return true;
                }
                from = i + 1;
            }
        }
        return false;
    }

    /** Service-loaded by Hyperfoil's parser, by {@link #NAME}. */
    @Name(NAME)
    public static final class Builder implements HeaderHandler.Builder {
        @Override
        public HeaderHandler build() {
            return new ConnectionClose();
        }
    }
}
