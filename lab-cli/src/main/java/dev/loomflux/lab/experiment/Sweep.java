package dev.loomflux.lab.experiment;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.sut.TargetSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The grid of a sweep (docs/sweep.md): one or two axes, each a parameter and its values, every
 * target measured at steady state in every cell. Load and request parameters (users, rate, delay,
 * ...) change between cells on the same JVM; a Spring property or JVM flag makes each value a
 * target of its own, started afresh.
 *
 * @param cellWarmup the most warmup of every cell after a target's first, until steady: the JVM has
 *                   compiled the scenario by then, only the new load has to settle
 */
public record Sweep(List<Axis> axes, Duration cellWarmup) {
    public static final int MAX_AXES = 2;
    public static final int MAX_VALUES = 12;
    public static final Duration DEFAULT_CELL_WARMUP = Duration.ofSeconds(60);
    private static final Pattern PROPERTY = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    /** One or more flags, space-separated, at least one with {}: "-Xmx{}m", or "-Xms{}m -Xmx{}m" (the lab starts targets with -Xms = --heap). */
    private static final Pattern JVM_FLAGS = Pattern.compile("-[A-Za-z0-9:+._={}-]+( -[A-Za-z0-9:+._={}-]+)*");

    public enum AxisKind {
        /** Closed-model users of a fixed profile. */
        USERS,
        /** Open-model arrivals per second. */
        RATE,
        /** A request parameter of the scenario: delay, depth, page, size, work. */
        SCENARIO,
        /** A Spring property of the target: a JVM per value. */
        PROPERTY,
        /** A JVM flag with the value in place of {}: a JVM per value. */
        JVM
    }

    /**
     * @param name as given: {@code users}, {@code delay}, {@code property:server.tomcat.threads.max}, {@code jvm:-Xmx{}m}
     */
    public record Axis(String name, AxisKind kind, List<Integer> values) implements SweepMap.GridAxis {
        public Axis {
            values = List.copyOf(values);
        }

        /** Whether each value needs its own target JVM. */
        public boolean restartsTarget() {
            return kind == AxisKind.PROPERTY || kind == AxisKind.JVM;
        }

        /** Short, for tables and sentences: "users", "delay", "threads.max", "-Xmx{}m". */
        @Override
        public String label() {
            return switch (kind) {
                case PROPERTY -> name.substring("property:".length()).replaceFirst("^(server\\.tomcat\\.|loomflux\\.|spring\\.)", "");
                case JVM -> name.substring("jvm:".length());
                default -> name;
            };
        }

        /** "50 users", "20 ms delay", "threads.max 10". */
        @Override
        public String describe(int value) {
            return switch (kind) {
                case USERS -> value + " users";
                case RATE -> value + " rps";
                case SCENARIO -> name.equals("delay") ? value + " ms delay" : name + " " + value;
                case PROPERTY -> label() + " " + value;
                case JVM -> label().replace("{}", Integer.toString(value));
            };
        }
    }

    /** One target JVM of a sweep: a target as declared, or with one value of each target axis on top. */
    public record Variant(TargetSpec spec, String base, Map<String, Integer> at) {
    }

    public Sweep {
        axes = List.copyOf(axes);
        if (axes.isEmpty() || axes.size() > MAX_AXES) {
            throw new IllegalArgumentException("axes " + axes.size());
        }
        if (axes.stream().filter(a -> a.kind() == AxisKind.USERS || a.kind() == AxisKind.RATE).count() > 1) {
            throw new UsageException("sweep: users and rate cannot both vary (one is a closed, the other an open model)");
        }
        if (axes.size() == 2 && axes.get(0).name().equals(axes.get(1).name())) {
            throw new UsageException("sweep: " + axes.get(0).name() + " is varied twice");
        }
    }

    /**
     * An axis from {@code NAME=V1,V2,...}. Values are integers in the parameter's own limits (request
     * parameters: the targets' own; users and rate: the profile's).
     *
     * @param where the flag or file field, for errors
     */
    public static Axis axis(String spec, String where) {
        int eq = spec.lastIndexOf('=');
        if (eq <= 0 || eq == spec.length() - 1) {
            throw new UsageException(where + " " + spec + ": expected NAME=V1,V2,... e.g. users=10,100,1000");
        }
        String name = spec.substring(0, eq).trim();
        List<Integer> values = new ArrayList<>();
        for (String v : spec.substring(eq + 1).split(",")) {
            try {
                values.add(Integer.parseInt(v.trim()));
            } catch (NumberFormatException e) {
                throw new UsageException(where + " " + spec + ": '" + v.trim() + "' is not an integer");
            }
        }
        return axis(name, values, where + " " + name);
    }

    /** @param at the flag or file field, for errors: "--vary users", "x.yaml: sweep.users" */
    public static Axis axis(String name, List<Integer> values, String at) {
        if (values.isEmpty() || values.size() > MAX_VALUES) {
            throw new UsageException(at + ": give 1 to " + MAX_VALUES + " values");
        }
        if (values.stream().distinct().count() != values.size()) {
            throw new UsageException(at + ": a value is given twice");
        }
        AxisKind kind;
        if (name.equals("users")) {
            kind = AxisKind.USERS;
            within(at, values, 1, LoadBounds.MAX_USERS);
        } else if (name.equals("rate")) {
            kind = AxisKind.RATE;
            within(at, values, 1, LoadBounds.MAX_RPS);
        } else if (name.startsWith("property:")) {
            kind = AxisKind.PROPERTY;
            if (!PROPERTY.matcher(name.substring("property:".length())).matches()) {
                throw new UsageException(at + ": expected property:NAME with letters, digits, '.', '_' or '-'");
            }
        } else if (name.startsWith("jvm:")) {
            kind = AxisKind.JVM;
            String flags = name.substring("jvm:".length());
            if (!JVM_FLAGS.matcher(flags).matches() || !flags.contains("{}")) {
                throw new UsageException(at + ": expected jvm:FLAG with {} where the value goes, e.g. 'jvm:-Xms{}m -Xmx{}m'");
            }
        } else if (Arrays.stream(Scenario.Endpoint.values()).anyMatch(k -> Arrays.asList(k.params()).contains(name))) {
            kind = AxisKind.SCENARIO;
            dev.loomflux.targets.Param param = dev.loomflux.targets.Param.valueOf(name.toUpperCase());
            within(at, values, param.min(), param.max());
        } else {
            throw new UsageException(at + ": unknown parameter (users, rate, delay, depth, page, size, work, property:NAME, jvm:FLAG{})");
        }
        return new Axis(name, kind, values);
    }

    private static void within(String at, List<Integer> values, int min, int max) {
        for (int v : values) {
            if (v < min || v > max) {
                throw new UsageException(at + ": " + v + " is out of range " + min + ".." + max);
            }
        }
    }

    /**
     * Every cell of the load and request axes, first axis slowest: what one target JVM visits, in
     * order. Users and rate go from the highest down: the first cell warms the JVM from cold, and the
     * heaviest load compiles the hot code soonest, so the lighter cells after it find it compiled.
     */
    public List<Map<String, Integer>> cells() {
        List<Map<String, Integer>> out = new ArrayList<>();
        out.add(Map.of());
        for (Axis a : axes) {
            if (a.restartsTarget()) {
                continue;
            }
            List<Integer> values = new ArrayList<>(a.values());
            if (a.kind() == AxisKind.USERS || a.kind() == AxisKind.RATE) {
                values.sort(java.util.Comparator.reverseOrder());
            }
            List<Map<String, Integer>> next = new ArrayList<>();
            for (Map<String, Integer> cell : out) {
                for (int v : values) {
                    Map<String, Integer> m = new LinkedHashMap<>(cell);
                    m.put(a.name(), v);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }

    /** The targets to start: each declared target once per combination of the target axes' values. */
    public List<Variant> variants(List<TargetSpec> targets) {
        List<Variant> out = new ArrayList<>();
        for (TargetSpec t : targets) {
            List<Variant> forTarget = new ArrayList<>(List.of(new Variant(t, t.name(), Map.of())));
            for (Axis a : axes) {
                if (!a.restartsTarget()) {
                    continue;
                }
                if (t.command() != null) {
                    throw new UsageException("sweep: " + a.name() + " cannot vary on " + t.name() + ", which runs its own command");
                }
                List<Variant> next = new ArrayList<>();
                for (Variant v : forTarget) {
                    for (int value : a.values()) {
                        Map<String, Integer> at = new LinkedHashMap<>(v.at());
                        at.put(a.name(), value);
                        String suffix = a.label().replace("{}", "").replaceAll("[^A-Za-z0-9.-]+", "").replaceFirst("^-+", "") + "-" + value;
                        TargetSpec spec = a.kind() == AxisKind.PROPERTY
                                ? v.spec().derive(v.spec().name() + "+" + suffix, Map.of(a.name().substring("property:".length()), Integer.toString(value)), List.of())
                                : v.spec().derive(v.spec().name() + "+" + suffix, Map.of(), List.of(a.label().replace("{}", Integer.toString(value)).split(" ")));
                        next.add(new Variant(spec, t.name(), at));
                    }
                }
                forTarget = next;
            }
            out.addAll(forTarget);
        }
        return out;
    }

    /** The scenario of a cell: the request axes' values on top of the base scenario's parameters. */
    /** The scenario as the map names it: without the parameters the grid varies ("gateway" when the delay is swept). */
    public String mapName(Scenario base) {
        return base.nameWithout(axes.stream().filter(a -> a.kind() == AxisKind.SCENARIO).map(Axis::name).collect(Collectors.toSet()));
    }

    public Scenario scenario(Scenario base, Map<String, Integer> cell) {
        Map<String, Integer> params = new LinkedHashMap<>(base.params());
        for (Axis a : axes) {
            if (a.kind() == AxisKind.SCENARIO && cell.containsKey(a.name())) {
                if (!Arrays.asList(base.kind().params()).contains(a.name())) {
                    throw new UsageException("sweep: " + a.name() + " does not apply to scenario " + base.name());
                }
                params.put(a.name(), cell.get(a.name()));
            }
        }
        if (base.isFlow()) {
            return base;
        }
        return Scenario.of(base.kind().id(), params, base.dist(), true, "sweep");
    }

    /** The profile of a cell: the users or rate axis's value in the base profile, which must be of that kind. */
    public LoadProfile profile(LoadProfile base, Map<String, Integer> cell) {
        for (Axis a : axes) {
            if (a.kind() == AxisKind.USERS && cell.containsKey(a.name())) {
                if (!(base instanceof LoadProfile.Fixed f)) {
                    throw new UsageException("sweep: users varies a fixed profile, not " + base.kind());
                }
                return new LoadProfile.Fixed(cell.get(a.name()), f.duration(), f.think());
            }
            if (a.kind() == AxisKind.RATE && cell.containsKey(a.name())) {
                if (!(base instanceof LoadProfile.Rate r)) {
                    throw new UsageException("sweep: rate varies a rate profile, not " + base.kind());
                }
                int rps = cell.get(a.name());
                return new LoadProfile.Rate(rps, r.duration(), Math.max(r.maxInFlight(), LoadBounds.defaultMaxInFlight(rps)));
            }
        }
        return base;
    }

    /** Checks the grid against the experiment before anything starts: every cell's scenario and profile can be built. */
    public void check(Experiment e) {
        for (Map<String, Integer> cell : cells()) {
            e.scenarios().forEach(s -> scenario(s, cell));
            profile(e.profile(), cell);
        }
        variants(e.targets());
    }
}
