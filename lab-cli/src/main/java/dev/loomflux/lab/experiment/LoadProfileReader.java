package dev.loomflux.lab.experiment;

import dev.loomflux.lab.UsageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one reading of a load profile, for experiment files and flags alike: the same fields,
 * defaults and limits. Only the names in errors differ ({@code x.yaml: profile.fixed.users: ...}
 * or {@code --users 0: ...}), and those the {@link Fields} give.
 */
public final class LoadProfileReader {
    /** The open model's cap on requests in flight. */
    public static final String MAX_IN_FLIGHT = "max-in-flight";
    /** Which fields each kind takes; any other is an error, not silently ignored. */
    public static final Map<String, List<String>> FIELDS = Map.of(
            "stages", List.of("stages"),
            "fixed", List.of("users", "duration"),
            "loops", List.of("users", "requests"),
            "burst", List.of("users", "requests"),
            "rate", List.of("rps", "duration", MAX_IN_FLIGHT));
    /** Fields of older labs, by the name that replaced them: an old field is an error that names its new name. */
    static final Map<String, String> RENAMED = Map.of("max-users", MAX_IN_FLIGHT);
    public static final String KINDS = "stages, fixed, loops, burst, rate";
    static final String CLOSED = "stages, fixed, loops, burst";
    /** Every closed profile's pause between requests: beside the kind's fields, since stages are a list. */
    public static final String THINK = "think";
    public static final int DEFAULT_USERS = 50;
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(15);
    public static final int DEFAULT_REQUESTS = 100;

    /** A profile's fields as the user gave them. */
    public interface Fields {
        /** The field's value as text, or null when it was not given. */
        String text(String field);

        /** The stages, each as its own fields (duration, users). */
        List<Fields> stages();

        /** An error naming the field as the user wrote it; the empty field is the profile itself. */
        UsageException error(String field, String message);
    }

    private LoadProfileReader() {
    }

    public static LoadProfile read(String kind, Fields f) {
        switch (kind) {
            case "stages":
                List<LoadProfile.Stage> stages = new ArrayList<>();
                for (Fields s : f.stages()) {
                    stages.add(new LoadProfile.Stage(positive(s, "duration", null), integer(s, "users", 0, LoadBounds.MAX_USERS, null)));
                }
                if (stages.stream().allMatch(s -> s.users() == 0)) {
                    throw f.error("stages", stages.isEmpty() ? "name at least one stage" : "no stage has users");
                }
                return new LoadProfile.Stages(stages, think(f));
            case "fixed":
                return new LoadProfile.Fixed(users(f), positive(f, "duration", DEFAULT_DURATION), think(f));
            case "loops":
                return new LoadProfile.Loops(users(f), integer(f, "requests", 1, LoadBounds.MAX_REQUESTS_PER_USER, DEFAULT_REQUESTS), think(f));
            case "burst":
                return new LoadProfile.Burst(users(f), integer(f, "requests", 1, LoadBounds.MAX_REQUESTS_PER_USER, DEFAULT_REQUESTS), think(f));
            case "rate":
                if (f.text(THINK) != null) {
                    throw f.error(THINK, "applies to the closed profiles (" + CLOSED + "); the rate profile's arrivals do not wait for a response");
                }
                if (f.text("rps") == null) {
                    throw f.error("rps", "required by the rate profile: the arrival rate in requests per second");
                }
                int rps = integer(f, "rps", 1, LoadBounds.MAX_RPS, null);
                return new LoadProfile.Rate(rps, positive(f, "duration", DEFAULT_DURATION),
                        integer(f, MAX_IN_FLIGHT, 1, LoadBounds.MAX_USERS, LoadBounds.defaultMaxInFlight(rps)));
            default:
                throw f.error("", "unknown profile (allowed: " + KINDS + ")");
        }
    }

    private static Think think(Fields f) {
        String text = f.text(THINK);
        return text == null ? Think.NONE : Think.parse(text, message -> f.error(THINK, message));
    }

    private static int users(Fields f) {
        return integer(f, "users", 1, LoadBounds.MAX_USERS, DEFAULT_USERS);
    }

    private static int integer(Fields f, String field, int min, int max, Integer fallback) {
        String text = f.text(field);
        if (text == null && fallback != null) {
            return fallback;
        }
        int v;
        try {
            v = Integer.parseInt(text == null ? "" : text.strip());
        } catch (NumberFormatException e) {
            throw f.error(field, "expected an integer in " + min + ".." + max);
        }
        if (v < min || v > max) {
            throw f.error(field, v + " is out of range " + min + ".." + max);
        }
        return v;
    }

    private static Duration positive(Fields f, String field, Duration fallback) {
        String text = f.text(field);
        if (text == null && fallback != null) {
            return fallback;
        }
        Duration d = Node.parseDuration(text, message -> f.error(field, message));
        if (d.isZero()) {
            throw f.error(field, "must be longer than 0");
        }
        return d;
    }
}
