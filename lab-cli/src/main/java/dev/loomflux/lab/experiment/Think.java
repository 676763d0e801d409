package dev.loomflux.lab.experiment;

import dev.loomflux.lab.UsageException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * A closed-model user's pause after each response before its next request, as k6's {@code sleep}:
 * fixed ({@code min == max}), or uniform in {@code min..max}. Whole milliseconds, Hyperfoil's
 * resolution. A user that thinks holds its keep-alive connection idle, so N users with think time
 * are N open connections that are mostly quiet: the shape where a thread per connection and an
 * event loop differ most.
 */
public record Think(Duration min, Duration max) {
    /** The longest pause taken: a day, Hyperfoil's own limit (declared first: NONE is checked against it). */
    static final Duration MAX = Duration.ofHours(24);
    public static final Think NONE = new Think(Duration.ZERO, Duration.ZERO);

    public Think {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        if (min.isNegative() || min.compareTo(max) > 0 || max.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("think " + min + ".." + max);
        }
    }

    /**
     * {@code 100ms} (fixed) or {@code 1s..3s} (uniform); {@code 0s} is none.
     *
     * @param errors makes the error that names the field or flag
     */
    public static Think parse(String text, Function<String, UsageException> errors) {
        String[] parts = text == null ? new String[0] : text.strip().split("\\.\\.", -1);
        if (parts.length < 1 || parts.length > 2) {
            throw errors.apply("expected a pause such as 100ms (fixed) or 1s..3s (uniform), got '" + text + "'");
        }
        Duration min = Node.parseDuration(parts[0], errors);
        Duration max = parts.length == 2 ? Node.parseDuration(parts[1], errors) : min;
        if (min.compareTo(max) > 0) {
            throw errors.apply(text.strip() + " ends before it starts: give min..max");
        }
        if (max.compareTo(MAX) > 0) {
            throw errors.apply(text.strip() + " is longer than a day");
        }
        return new Think(min, max);
    }

    public boolean none() {
        return max.isZero();
    }

    public double meanMs() {
        return (min.toMillis() + max.toMillis()) / 2.0;
    }

    /** As it is written: {@code 100ms} or {@code 1000ms..3000ms}. */
    @Override
    public String toString() {
        return min.equals(max) ? min.toMillis() + "ms" : min.toMillis() + "ms.." + max.toMillis() + "ms";
    }
}
