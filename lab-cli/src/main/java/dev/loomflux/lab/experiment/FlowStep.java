package dev.loomflux.lab.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One request of a {@link Flow}: its method, path and headers (templates over the user's variables,
 * {@link Template}), an optional body template, the status it expects and the values it extracts from
 * the response into the user's variables for the steps after it. A response with another status, or
 * without a value to extract, fails the step and ends the user's iteration (experiments/example.yaml).
 *
 * @param name     names the step's statistics: unique within the scenario
 * @param body     the body template, null for none; read from {@code bodyFile} when the file gave one
 * @param bodyFile the file the body was read from, null when inline or none
 * @param think    the pause after this step's response, inside the flow; {@link Think#NONE} for none
 */
public record FlowStep(String name, Method method, String path, Map<String, String> headers, String body, String bodyFile,
                       Expect expect, List<Extract> extract, Think think) {
    /** The methods a step can send. */
    public enum Method { GET, POST, PUT, PATCH, DELETE }

    /**
     * The statuses that count as the step's success: one status ({@code 201}) or a class ({@code 2xx}).
     * Only 200..399: a 4xx or 5xx is counted as an error of its class, whatever the step expects.
     */
    public record Expect(int min, int max) {
        public static final Expect SUCCESS = new Expect(200, 299);

        public Expect {
            if (min < 200 || max > 399 || min > max) {
                throw new IllegalArgumentException("expect " + min + ".." + max);
            }
        }

        public boolean single() {
            return min == max;
        }

        /** As written: {@code 201} or {@code 2xx}. */
        @Override
        public String toString() {
            return single() ? Integer.toString(min) : min / 100 + "xx";
        }
    }

    /**
     * A value the step keeps from its response under {@code var}: a JSON path into the body ({@link JsonPath}),
     * or a response header by name.
     */
    public record Extract(String var, Source source, String from) {
        public enum Source { JSON, HEADER }

        /** How the error of a response without it reads: {@code $.id}, {@code header Location}. */
        public String describe() {
            return source == Source.JSON ? from : "header " + from;
        }
    }

    public FlowStep {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        extract = List.copyOf(extract);
        Objects.requireNonNull(expect, "expect");
        Objects.requireNonNull(think, "think");
    }

    /** As the step reads in one line: {@code POST /items}. */
    public String request() {
        return method + " " + path;
    }
}
