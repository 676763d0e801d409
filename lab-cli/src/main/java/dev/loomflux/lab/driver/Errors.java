package dev.loomflux.lab.driver;

import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.http.statistics.HttpStats;

/**
 * Failed requests by cause. Each failed request counts once.
 *
 * @param connect   the connection failed or was closed under the request
 * @param timeout   no response within the request timeout
 * @param status4xx responses with status 400..499
 * @param status5xx responses with status 500..599
 * @param other     responses with a status outside 100..599 and driver-internal failures
 */
public record Errors(long connect, long timeout, long status4xx, long status5xx, long other) {
    public Errors plus(Errors o) {
        return new Errors(connect + o.connect, timeout + o.timeout, status4xx + o.status4xx, status5xx + o.status5xx, other + o.other);
    }

    public long total() {
        return connect + timeout + status4xx + status5xx + other;
    }

    /**
     * Hyperfoil counts a timed-out request twice, as a timeout and as a connection error (it closes
     * the connection to abandon the request), so connection errors are net of timeouts. Hyperfoil's
     * "other" status class is everything but 2xx..5xx; 1xx never reaches it on HTTP/1.1 GETs.
     */
    static Errors of(StatisticsSnapshot s) {
        HttpStats http = HttpStats.get(s);
        return new Errors(Math.max(0, s.connectionErrors - s.requestTimeouts), s.requestTimeouts,
                http.status_4xx, http.status_5xx, s.internalErrors + http.status_other);
    }
}
