package dev.loomflux.lab.sut;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The lab's own small HTTP calls (readiness, checks); load is Hyperfoil's job, not this. */
public final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private Http() {
    }

    /** A response with the time it took, measured around the whole exchange. */
    public record Reply(int status, String contentType, String body, long elapsedMillis) {
    }

    public static Reply get(URI uri, Duration timeout) throws IOException, InterruptedException {
        return get(CLIENT, uri, timeout);
    }

    /** On a client of its own, so no pooled connection is reused. */
    public static Reply getOnNewConnection(URI uri, Duration timeout) throws IOException, InterruptedException {
        return get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build(), uri, timeout);
    }

    private static Reply get(HttpClient client, URI uri, Duration timeout) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
        long t0 = System.nanoTime();
        HttpResponse<String> res = client.send(req, HttpResponse.BodyHandlers.ofString());
        long elapsed = (System.nanoTime() - t0) / 1_000_000;
        return new Reply(res.statusCode(), res.headers().firstValue("content-type").orElse(""), res.body(), elapsed);
    }
}
