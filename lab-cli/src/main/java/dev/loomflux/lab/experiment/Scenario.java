package dev.loomflux.lab.experiment;

import dev.loomflux.lab.UsageException;
import dev.loomflux.targets.BadParameterException;
import dev.loomflux.targets.Delay;
import dev.loomflux.targets.Param;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one request does: an endpoint of the target API with its parameters, or (kind PATH) any
 * GET path, for bring-your-own targets; or (kind FLOW) what one iteration of a user does: a flow of
 * requests, or a mix of flows ({@link Mix}).
 *
 * @param mix the flows of a FLOW scenario, null for the others
 */
public record Scenario(Endpoint kind, Map<String, Integer> params, String customPath, String dist, Mix mix) {
    public enum Endpoint {
        PLAINTEXT("plaintext"),
        JSON("json"),
        GATEWAY("gateway", "delay"),
        CHAIN("chain", "delay", "depth"),
        ITEMS("items", "page", "size"),
        CPU("cpu", "work"),
        /** CPU work, a page of rows and a downstream call in one request: neither pure sleep nor pure CPU. */
        MIXED("mixed", "work", "page", "size", "delay"),
        PATH("path"),
        /** No endpoint of its own: the steps of a flow, or of a mix of flows, each on its own path. */
        FLOW("flow");

        private final String id;
        private final String[] params;

        Endpoint(String id, String... params) {
            this.id = id;
            this.params = params;
        }

        public String id() {
            return id;
        }

        public String[] params() {
            return params.clone();
        }
    }

    /** Load defaults: a 20 ms downstream, a 3-hop chain, the first page of 20 rows, 1000 SHA-256 rounds. */
    public static final Map<String, Integer> DEFAULTS = Map.of("delay", 20, "depth", 3, "page", 0, "size", 20, "work", 1000);

    public Scenario {
        params = Map.copyOf(params);
        if ((kind == Endpoint.FLOW) != (mix != null)) {
            throw new IllegalArgumentException("a flow scenario, and only one, has a mix: " + kind);
        }
    }

    public Scenario(Endpoint kind, Map<String, Integer> params, String customPath, String dist) {
        this(kind, params, customPath, dist, null);
    }

    public Scenario(Endpoint kind, Map<String, Integer> params) {
        this(kind, params, null, null);
    }

    /** A flow, or a mix of flows, as a scenario. */
    public static Scenario flow(Mix mix) {
        return new Scenario(Endpoint.FLOW, Map.of(), null, null, java.util.Objects.requireNonNull(mix, "mix"));
    }

    /** A GET of any path on the target, e.g. {@code /hello?name=x}. */
    public static Scenario custom(String path, String where) {
        boolean valid = path.startsWith("/") && path.length() <= 200 && !path.matches(".*\\s.*");
        try {
            valid = valid && java.net.URI.create("http://h" + path).getRawPath() != null;
        } catch (IllegalArgumentException e) {
            valid = false;
        }
        if (!valid) {
            throw new UsageException(where + ": path '" + path + "' must start with '/', be a valid URL path (no spaces) and at most 200 characters");
        }
        return new Scenario(Endpoint.PATH, Map.of(), path, null);
    }

    public static final String KNOWN = Arrays.stream(Endpoint.values()).filter(k -> k != Endpoint.FLOW)
            .map(k -> k == Endpoint.PATH ? Crud.NAME + ", path:/ANY" : k.id()).collect(Collectors.joining(", "));

    /**
     * A scenario by name with some parameters given (others take {@link #DEFAULTS}), checked against
     * the same limits the targets enforce. Parameters the endpoint does not take are ignored only if
     * {@code strict} is false (flags like --delay apply to the scenarios that use them).
     */
    public static Scenario of(String id, Map<String, Integer> given, boolean strict, String where) {
        return of(id, given, null, strict, where);
    }

    /**
     * @param dist how the downstream's delay is spread (fixed, uniform, exponential, lognormal with
     *             {@code p99} in {@code given}); null for fixed. Only for scenarios that call the downstream.
     */
    public static Scenario of(String id, Map<String, Integer> given, String dist, boolean strict, String where) {
        if (id.startsWith("path:")) {
            return custom(id.substring("path:".length()), where);
        }
        if (id.equals(Crud.NAME)) {
            if (strict && (dist != null || !given.isEmpty())) {
                throw new UsageException(where + ": '" + (dist != null ? "dist" : given.keySet().iterator().next()) + "' does not apply to "
                        + Crud.NAME + " (it takes no parameters)");
            }
            return flow(Crud.mix());
        }
        Endpoint kind = Arrays.stream(Endpoint.values()).filter(k -> k.id().equals(id)).findFirst()
                .filter(k -> k != Endpoint.PATH && k != Endpoint.FLOW)
                .orElseThrow(() -> new UsageException(where + ": unknown scenario '" + id + "' (allowed: " + KNOWN + ")"));
        boolean delayed = Arrays.asList(kind.params).contains("delay");
        if (strict) {
            if (dist != null && !delayed) {
                throw new UsageException(where + ": 'dist' does not apply to " + id + " (only to scenarios that call the downstream: gateway, chain, mixed)");
            }
            for (String p : given.keySet()) {
                if (!Arrays.asList(kind.params).contains(p) && !(p.equals("p99") && delayed)) {
                    throw new UsageException(where + ": '" + p + "' does not apply to " + id
                            + (kind.params.length == 0 ? " (it takes no parameters)" : " (it takes " + String.join(", ", kind.params) + ")"));
                }
            }
        }
        Map<String, Integer> values = new LinkedHashMap<>();
        for (String p : kind.params) {
            Param param = Param.valueOf(p.toUpperCase());
            int v = given.getOrDefault(p, DEFAULTS.get(p));
            if (v < param.min() || v > param.max()) {
                throw new UsageException(where + ": " + p + " " + v + " is out of range " + param.min() + ".." + param.max());
            }
            values.put(p, v);
        }
        if (!delayed || (dist == null && !given.containsKey("p99"))) {
            return new Scenario(kind, values, null, null);
        }
        Integer p99 = given.get("p99");
        Delay delay;
        try {
            // The targets' own check, so the lab refuses what a target would answer with a 400.
            delay = Delay.parse(values.get("delay").toString(), dist, p99 == null ? null : p99.toString());
            if (values.containsKey("depth")) {
                delay.calls(values.get("depth").toString());
            }
        } catch (BadParameterException e) {
            throw new UsageException(where + ": " + e.getMessage());
        }
        if (delay.dist() == Delay.Dist.LOGNORMAL) {
            values.put("p99", delay.p99());
        }
        return new Scenario(kind, values, null, delay.dist() == Delay.Dist.FIXED ? null : delay.dist().name().toLowerCase(java.util.Locale.ROOT));
    }

    /** The scenario's name in results: {@code gateway-delay20}, {@code items-page0-size20}. */
    public String name() {
        return nameWithout(Set.of());
    }

    /** The name without some parameters, e.g. a sweep's map of {@code gateway} over the delays it swept. */
    public String nameWithout(Set<String> omitted) {
        if (kind == Endpoint.FLOW) {
            return mix.name();
        }
        if (kind == Endpoint.PATH) {
            String slug = customPath.replaceAll("[^A-Za-z0-9._]+", "-").replaceAll("^-+|-+$", "");
            return "path" + (slug.isEmpty() ? "" : "-" + (slug.length() > 50 ? slug.substring(0, 50) : slug));
        }
        StringBuilder sb = new StringBuilder(kind.id());
        for (String p : kind.params) {
            if (!omitted.contains(p)) {
                sb.append('-').append(p).append(params.get(p));
            }
        }
        if (dist != null) {
            sb.append('-').append(dist).append(params.containsKey("p99") ? "-p99" + params.get("p99") : "");
        }
        return sb.toString();
    }

    /** The request path with its query string, e.g. {@code /chain?delay=20&depth=3}; a flow's first step's path. */
    public String path() {
        if (kind == Endpoint.FLOW) {
            return mix.first().path();
        }
        if (kind == Endpoint.PATH) {
            return customPath;
        }
        StringBuilder sb = new StringBuilder("/").append(kind.id());
        char sep = '?';
        for (String p : kind.params) {
            sb.append(sep).append(p).append('=').append(params.get(p));
            sep = '&';
        }
        if (dist != null) {
            sb.append("&dist=").append(dist).append(params.containsKey("p99") ? "&p99=" + params.get("p99") : "");
        }
        return sb.toString();
    }

    public boolean needsDownstream() {
        return kind == Endpoint.GATEWAY || kind == Endpoint.CHAIN || kind == Endpoint.MIXED || calls(Endpoint.GATEWAY, Endpoint.CHAIN, Endpoint.MIXED);
    }

    public boolean needsDatabase() {
        return kind == Endpoint.ITEMS || kind == Endpoint.MIXED || calls(Endpoint.ITEMS, Endpoint.MIXED);
    }

    /** A flow with a step on one of these built-in endpoints ({@code /items/${id}} is on items): a built-in target needs what they need. */
    private boolean calls(Endpoint... endpoints) {
        return kind == Endpoint.FLOW && mix.steps().stream().anyMatch(s -> Arrays.stream(endpoints)
                .anyMatch(e -> s.path().equals("/" + e.id()) || s.path().startsWith("/" + e.id() + "/") || s.path().startsWith("/" + e.id() + "?")));
    }

    /** Whether a user's iteration is a flow of requests rather than one request. */
    public boolean isFlow() {
        return kind == Endpoint.FLOW;
    }

    /** The parameters in the endpoint's order, as the name and path give them. */
    public Map<String, Integer> orderedParams() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (String p : kind.params) {
            m.put(p, params.get(p));
        }
        if (params.containsKey("p99")) {
            m.put("p99", params.get("p99"));
        }
        return m;
    }
}
