package dev.loomflux.targets;

/**
 * A bounded integer query parameter. The caps keep one request from tying up a target
 * (a huge delay, page size or CPU work) and are the same on every target.
 */
public enum Param {
    DELAY("delay", 0, 0, 5_000),
    DEPTH("depth", 1, 0, 10),
    PAGE("page", 0, 0, 100_000),
    SIZE("size", 20, 1, 100),
    WORK("work", 1_000, 1, 100_000);

    private final String name;
    private final int defaultValue;
    private final int min;
    private final int max;

    Param(String name, int defaultValue, int min, int max) {
        this.name = name;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
    }

    public int min() {
        return min;
    }

    public int max() {
        return max;
    }

    /** Parses a raw query value; absent means the default. */
    public int parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            return defaultValue;
        }
        int value;
        try {
            value = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new BadParameterException(rangeMessage());
        }
        if (value < min || value > max) {
            throw new BadParameterException(rangeMessage());
        }
        return value;
    }

    private String rangeMessage() {
        return "parameter '" + name + "' must be an integer in " + min + ".." + max;
    }
}
