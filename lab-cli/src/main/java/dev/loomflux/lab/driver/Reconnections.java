package dev.loomflux.lab.driver;

import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.api.statistics.StatsExtension;

/**
 * Responses that closed their connection ({@code Connection: close}, RFC 9112 section 9.6), each of which
 * makes the driver open a new connection, as browsers and wrk do. Not errors, but a cost of the target's
 * (a TCP handshake and a new socket per close, and the user waits for them): Tomcat closes a kept-alive
 * connection after {@code max-keep-alive-requests} responses (100 by default), Reactor Netty never does.
 * Kept among Hyperfoil's statistics under {@link #KEY}, by the second the request was sent, so that it adds
 * up by second and by block as the rest of them do, for both drivers.
 */
public final class Reconnections implements StatsExtension {
    /** Key of the count in a {@link StatisticsSnapshot}'s extensions. */
    public static final String KEY = "reconnections";
    private static final String[] HEADERS = {"count"};

    private long count;

    /** Adds {@code n} to the count in {@code s}. */
    public static void add(StatisticsSnapshot s, long n) {
        if (n != 0) {
            Reconnections r = (Reconnections) s.extensions.computeIfAbsent(KEY, k -> new Reconnections());
            r.count += n;
        }
    }

    /** The count in {@code s}; 0 when none was kept. */
    public static long in(StatisticsSnapshot s) {
        return s.extensions.get(KEY) instanceof Reconnections r ? r.count : 0;
    }

    /** Adds {@code n}: what a Hyperfoil statistics update calls. */
    public void increment(long n) {
        count += n;
    }

    @Override
    public boolean isNull() {
        return count == 0;
    }

    @Override
    public void add(StatsExtension other) {
        count += ((Reconnections) other).count;
    }

    @Override
    public void subtract(StatsExtension other) {
        count -= ((Reconnections) other).count;
    }

    @Override
    public void reset() {
        count = 0;
    }

    @Override
    public StatsExtension clone() {
        Reconnections copy = new Reconnections();
        copy.count = count;
        return copy;
    }

    @Override
    public String[] headers() {
        return HEADERS.clone();
    }

    @Override
    public String byHeader(String header) {
        return "count".equals(header) ? Long.toString(count) : "<unknown header: " + header + ">";
    }
}
