package dev.loomflux.targets.mvc;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The JDK's HttpClient has no connection limit: under 10,000 virtual threads it would open a connection
 * per waiting call where the other libraries queue for one of the shared max-connections. This holds
 * it to the same rule: at most {@code permits} exchanges in flight (an HTTP/1.1 exchange holds one
 * connection from send until its body is read and closed), a caller waits at most the acquire timeout
 * for a permit, as for a pooled connection, then fails the call.
 */
final class InFlightLimit implements ClientHttpRequestInterceptor {
    private final Semaphore permits;
    private final int size;
    private final Duration acquireTimeout;

    InFlightLimit(int size, Duration acquireTimeout) {
        this.permits = new Semaphore(size, true);
        this.size = size;
        this.acquireTimeout = acquireTimeout;
    }

    int size() {
        return size;
    }

    Duration acquireTimeout() {
        return acquireTimeout;
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution) throws IOException {
        try {
            if (!permits.tryAcquire(acquireTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IOException("no downstream connection free within " + acquireTimeout.toMillis() + " ms (" + size + " in use)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for a downstream connection", e);
        }
        try {
            return new Releasing(execution.execute(request, body));
        } catch (IOException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /** Gives the permit back when RestClient closes the response, after reading its body. */
    private final class Releasing implements ClientHttpResponse {
        private final ClientHttpResponse response;
        private final AtomicBoolean open = new AtomicBoolean(true);

        Releasing(ClientHttpResponse response) {
            this.response = response;
        }

        @Override
        public HttpStatusCode getStatusCode() throws IOException {
            return response.getStatusCode();
        }

        @Override
        public String getStatusText() throws IOException {
            return response.getStatusText();
        }

        @Override
        public HttpHeaders getHeaders() {
            return response.getHeaders();
        }

        @Override
        public InputStream getBody() throws IOException {
            return response.getBody();
        }

        @Override
        public void close() {
            try {
                response.close();
            } finally {
                if (open.compareAndSet(true, false)) {
                    permits.release();
                }
            }
        }
    }
}
