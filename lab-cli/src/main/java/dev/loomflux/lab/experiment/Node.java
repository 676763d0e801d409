package dev.loomflux.lab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.UsageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A YAML node that knows where it is ({@code experiments/x.yaml: profile.fixed.users}), so every
 * error names the file and field and says what is allowed.
 */
final class Node {
    private static final Pattern DURATION = Pattern.compile("([0-9]+)(ms|s|m|h)");

    private final String source;
    private final String path;
    private final JsonNode json;

    Node(String source, String path, JsonNode json) {
        this.source = source;
        this.path = path;
        this.json = json;
    }

    String path() {
        return path;
    }

    boolean isMissing() {
        return json == null || json.isMissingNode() || json.isNull();
    }

    boolean isText() {
        return json != null && json.isTextual();
    }

    boolean isList() {
        return json != null && json.isArray();
    }

    boolean isObject() {
        return json != null && json.isObject();
    }

    boolean isIntegral() {
        return json != null && json.isIntegralNumber();
    }

    /** The value as written, for a message that shows what was given. */
    String raw() {
        return json == null ? "" : json.isValueNode() ? json.asText() : json.toString();
    }

    /** {@code file: path}, for messages built elsewhere. */
    String where() {
        return path.isEmpty() ? source : source + ": " + path;
    }

    UsageException error(String message) {
        return new UsageException(source + ": " + (path.isEmpty() ? "" : path + ": ") + message);
    }

    Node get(String field) {
        return new Node(source, path.isEmpty() ? field : path + "." + field, json == null ? null : json.get(field));
    }

    /** Rejects typos: an unknown key is an error, not silently ignored. */
    Node only(Set<String> allowed) {
        if (!isObject()) {
            throw error("expected a mapping with keys " + allowed);
        }
        for (Iterator<String> it = json.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!allowed.contains(key)) {
                throw get(key).error("unknown key (allowed: " + String.join(", ", allowed) + ")");
            }
        }
        return this;
    }

    List<String> keys() {
        List<String> out = new ArrayList<>();
        json.fieldNames().forEachRemaining(out::add);
        return out;
    }

    List<Node> list() {
        if (json == null || !json.isArray()) {
            throw error("expected a list");
        }
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < json.size(); i++) {
            out.add(new Node(source, path + "[" + i + "]", json.get(i)));
        }
        return out;
    }

    /** For {@code {fixed: {...}}}: the single key and its value. */
    Map.Entry<String, Node> single() {
        if (!isObject() || json.size() != 1) {
            throw error("expected exactly one key");
        }
        String key = json.fieldNames().next();
        return Map.entry(key, get(key));
    }

    Map<String, String> stringMap() {
        if (isMissing()) {
            return Map.of();
        }
        if (!isObject()) {
            throw error("expected a mapping of key: value");
        }
        Map<String, String> out = new LinkedHashMap<>();
        json.fields().forEachRemaining(e -> {
            if (!e.getValue().isValueNode()) {
                throw get(e.getKey()).error("expected a plain value");
            }
            out.put(e.getKey(), e.getValue().asText());
        });
        return out;
    }

    List<String> stringList() {
        if (isMissing()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Node n : list()) {
            out.add(n.text());
        }
        return out;
    }

    String text() {
        if (json == null || !json.isValueNode() || json.isNull()) {
            throw error("expected a text value");
        }
        return json.asText();
    }

    String text(String fallback) {
        return isMissing() ? fallback : text();
    }

    int integer(int min, int max) {
        if (json == null || !json.canConvertToInt() || !json.isIntegralNumber()) {
            throw error("expected an integer in " + min + ".." + max);
        }
        int v = json.asInt();
        if (v < min || v > max) {
            throw error(v + " is out of range " + min + ".." + max);
        }
        return v;
    }

    /** A whole number in {@code min..max}, for values wider than an int (a seed, a data range). */
    long whole(long min, long max) {
        if (json == null || !json.isIntegralNumber() || !json.canConvertToLong() || json.asLong() < min || json.asLong() > max) {
            throw error("expected a whole number in " + min + ".." + max + ", got '" + (json == null ? "" : json.asText()) + "'");
        }
        return json.asLong();
    }

    int integer(int min, int max, int fallback) {
        return isMissing() ? fallback : integer(min, max);
    }

    /** A positive number up to {@code max}, e.g. a fractional CPU count. */
    double positive(double max) {
        if (json == null || !json.isNumber() || !(json.asDouble() > 0 && json.asDouble() <= max)) {
            throw error("expected a number above 0 and at most " + (long) max + ", e.g. 0.5, got '" + (json == null ? "" : json.asText()) + "'");
        }
        return json.asDouble();
    }

    Duration duration() {
        return parseDuration(isText() || (json != null && json.isNumber()) ? json.asText() : null, this::error);
    }

    /** true or false; {@code fallback} when absent. */
    boolean flag(boolean fallback) {
        if (json == null) {
            return fallback;
        }
        if (!json.isBoolean()) {
            throw error("expected true or false, not '" + raw() + "'");
        }
        return json.asBoolean();
    }

    Duration duration(Duration fallback) {
        return isMissing() ? fallback : duration();
    }

    /** {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}; zero is allowed (e.g. no warmup). */
    static Duration parseDuration(String text, Function<String, UsageException> errors) {
        Matcher m = text == null ? null : DURATION.matcher(text.trim());
        if (m == null || !m.matches()) {
            throw errors.apply("expected a duration such as 500ms, 30s, 2m or 1h, got '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        switch (m.group(2)) {
            case "ms":
                return Duration.ofMillis(n);
            case "s":
                return Duration.ofSeconds(n);
            case "m":
                return Duration.ofMinutes(n);
            default:
                return Duration.ofHours(n);
        }
    }
}
