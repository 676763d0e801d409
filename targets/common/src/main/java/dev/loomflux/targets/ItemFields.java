package dev.loomflux.targets;

import java.util.Map;

/**
 * The body of POST and PUT /items, {"name": ..., "priceCents": ...}, and the id in /items/{id}, checked
 * in one place so every target answers a bad value with the same 400 (docs/api.md). The body arrives as
 * the web stack's untyped JSON object so that this class, not Jackson, words the message; fields other
 * than these two are ignored.
 */
public record ItemFields(String name, long priceCents) {
    /** Keeps one request from writing an arbitrarily large row; the seeded names have 10 characters. */
    public static final int NAME_MAX = 200;
    public static final String NOT_AN_OBJECT = "body must be a JSON object with 'name' and 'priceCents'";

    public static ItemFields parse(Map<String, ?> body) {
        if (body == null) {
            throw new BadParameterException(NOT_AN_OBJECT);
        }
        return new ItemFields(name(body.get("name")), priceCents(body.get("priceCents")));
    }

    private static String name(Object value) {
        if (value instanceof String s && !s.isBlank() && s.length() <= NAME_MAX) {
            return s;
        }
        throw new BadParameterException("body field 'name' must be a string of 1.." + NAME_MAX + " characters, not all blank");
    }

    /** JSON integers arrive as Integer or Long (BigInteger beyond a long); a fraction as Double or BigDecimal. */
    private static long priceCents(Object value) {
        if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= 0) {
            return ((Number) value).longValue();
        }
        throw new BadParameterException("body field 'priceCents' must be an integer in 0.." + Long.MAX_VALUE);
    }

    /** The id of /items/{id}: ids start at 1 (the seeded rows) and are bigint. */
    public static long id(String raw) {
        try {
            long id = Long.parseLong(raw.trim());
            if (id >= 1) {
                return id;
            }
        } catch (NumberFormatException e) {
            // worded below, as for an id out of range
        }
        throw new BadParameterException("item id must be an integer in 1.." + Long.MAX_VALUE);
    }
}
