package dev.loomflux.lab.wrk;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads wrk 4.x's console report. Only "Requests/sec:" is required; the other lines are optional
 * because wrk omits them (no "Socket errors" line without errors, no distribution without
 * {@code --latency}). Matching is per line and ignores spacing, which wrk pads to column widths.
 */
public final class WrkOutput {
    private static final Pattern RPS = Pattern.compile("(?m)^\\s*Requests/sec:\\s*([0-9]+(?:\\.[0-9]+)?)\\s*$");
    private static final Pattern TOTAL = Pattern.compile("(?m)^\\s*([0-9]+) requests in ([0-9.]+)(us|ms|s|m|h)\\b");
    private static final Pattern PERCENTILE = Pattern.compile("(?m)^\\s*(50|90|99)(?:\\.0+)?%\\s+([0-9.]+)(us|ms|s|m|h)\\s*$");
    private static final Pattern NON_2XX = Pattern.compile("(?m)^\\s*Non-2xx or 3xx responses:\\s*([0-9]+)");
    private static final Pattern SOCKET = Pattern.compile(
            "(?m)^\\s*Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)");

    private WrkOutput() {
    }

    /** @throws IllegalArgumentException naming the first line of the output when there is no "Requests/sec:" */
    public static WrkResult parse(String text) {
        Matcher rps = RPS.matcher(text);
        if (!rps.find()) {
            String first = text.strip().lines().findFirst().orElse("(no output)").strip();
            throw new IllegalArgumentException("no 'Requests/sec:' in wrk's output, which begins: " + first);
        }
        long requests = 0;
        double seconds = Double.NaN;
        Matcher total = TOTAL.matcher(text);
        if (total.find()) {
            requests = Long.parseLong(total.group(1));
            seconds = millis(total.group(2), total.group(3)) / 1000;
        }
        double[] pct = {Double.NaN, Double.NaN, Double.NaN};
        Matcher p = PERCENTILE.matcher(text);
        while (p.find()) {
            int slot = switch (p.group(1)) {
                case "50" -> 0;
                case "90" -> 1;
                default -> 2;
            };
            pct[slot] = millis(p.group(2), p.group(3));
        }
        long non2xx = 0;
        Matcher n = NON_2XX.matcher(text);
        if (n.find()) {
            non2xx = Long.parseLong(n.group(1));
        }
        long socket = 0;
        Matcher s = SOCKET.matcher(text);
        if (s.find()) {
            for (int g = 1; g <= 4; g++) {
                socket += Long.parseLong(s.group(g));
            }
        }
        return new WrkResult(Double.parseDouble(rps.group(1)), requests, seconds, pct[0], pct[1], pct[2], non2xx, socket);
    }

    /** wrk prints times with the largest unit that keeps the number >= 1: us, ms, s, m, h. */
    static double millis(String value, String unit) {
        double v = Double.parseDouble(value);
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "us" -> v / 1000;
            case "ms" -> v;
            case "s" -> v * 1000;
            case "m" -> v * 60_000;
            case "h" -> v * 3_600_000;
            default -> throw new IllegalArgumentException("unknown time unit " + unit);
        };
    }
}
