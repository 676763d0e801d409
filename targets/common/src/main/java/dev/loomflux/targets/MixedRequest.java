package dev.loomflux.targets;

/**
 * What a /mixed request asks for, checked in one place so every target answers a bad value with the
 * same 400: {@code work} digest rounds, a {@code page} of {@code size} items, then a downstream call.
 */
public record MixedRequest(int work, int page, int size, Delay delay) {
    /** Parses raw query values, absent ones taking each parameter's default. */
    public static MixedRequest parse(String work, String page, String size, String delay, String dist, String p99) {
        return new MixedRequest(Param.WORK.parse(work), Param.PAGE.parse(page), Param.SIZE.parse(size), Delay.parse(delay, dist, p99));
    }
}
