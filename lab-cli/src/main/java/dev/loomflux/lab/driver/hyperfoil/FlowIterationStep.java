package dev.loomflux.lab.driver.hyperfoil;

import dev.loomflux.lab.driver.FlowValues;
import dev.loomflux.lab.experiment.FlowCsv;
import io.hyperfoil.api.config.BenchmarkDefinitionException;
import io.hyperfoil.api.config.Name;
import io.hyperfoil.api.config.PairBuilder;
import io.hyperfoil.api.config.Step;
import io.hyperfoil.api.config.StepBuilder;
import io.hyperfoil.api.session.ObjectAccess;
import io.hyperfoil.api.session.ResourceUtilizer;
import io.hyperfoil.api.session.Session;
import io.hyperfoil.core.session.SessionFactory;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first step of a user's iteration of flows, a Hyperfoil step of the lab's own: Hyperfoil's random steps draw
 * from an unseeded generator, and the lab's draws must be the same on every target ({@link FlowValues}). It counts
 * the user's iterations, picks the flow of a mix and starts its sequence, sets the flow's data variables, and notes
 * when the iteration started.
 * Hyperfoil finds it on the lab's class path (META-INF/services); a Hyperfoil controller running an exported
 * benchmark needs the lab's jar among its extensions for it.
 *
 * <pre>
 * - loomflux-iteration:
 *     seed: 1
 *     users: 20                  # the sessions one target's load has; a session is user (its id modulo this)
 *     flows: {browse: 80, buy: 20}   # a mix: each flow's sequence and weight; none for a single flow
 *     values: {buy.n: unique, buy.price: uniform 100 10000, owners.lastName: csv lastName}
 *     csv: {owners: user /abs/owners.csv}
 * </pre>
 */
public final class FlowIterationStep implements Step, ResourceUtilizer {
    /** One data variable of a flow. */
    private record Value(ObjectAccess var, String name, Draw kind, long min, long max, int column) implements Serializable {
    }

    /** How a value is drawn: uniform in min..max, unique to the iteration, or a CSV column. */
    private enum Draw { UNIFORM, UNIQUE, CSV }

    /**
     * A user's count of its iterations, from 0, which outlives the session's reset between iterations, and when the
     * iteration under way started ({@link FlowRecordStep} times the flow from it).
     */
    static final class Iteration implements Session.Resource {
        long next;
        long startMillis;
        long startNanos;
    }

    /** The one key of a session's {@link Iteration}, shared by the steps that read it. */
    static final class IterationKey implements Session.ResourceKey<Iteration> {
        static final IterationKey ITERATION = new IterationKey();

        private IterationKey() {
        }

        /** The same key after a trip through serialization (to a Hyperfoil agent). */
        private Object readResolve() {
            return ITERATION;
        }
    }

    private final long seed;
    private final int users;
    /** Each flow's sequence, in the order of the weights; null for a single flow, whose steps follow this one. */
    private final String[] sequences;
    private final int[] weights;
    private final Value[][] values;
    private final String[][][] rows;
    private final boolean[] perUser;

    private FlowIterationStep(long seed, int users, String[] sequences, int[] weights, Value[][] values, String[][][] rows, boolean[] perUser) {
        this.seed = seed;
        this.users = users;
        this.sequences = sequences;
        this.weights = weights;
        this.values = values;
        this.rows = rows;
        this.perUser = perUser;
    }

    @Override
    public void reserve(Session session) {
        session.declareResource(IterationKey.ITERATION, Iteration::new);
    }

    @Override
    public boolean invoke(Session session) {
        Iteration state = session.getResource(IterationKey.ITERATION);
        long iteration = state.next++;
        state.startMillis = System.currentTimeMillis();
        state.startNanos = System.nanoTime();
        long user = Math.floorMod(session.uniqueId(), users);
        int flow = weights.length == 1 ? 0 : FlowValues.pick(seed, weights, user, iteration);
        String[][] csv = rows[flow];
        String[] row = csv == null ? null : csv[FlowValues.row(perUser[flow] ? FlowCsv.Per.USER : FlowCsv.Per.ITERATION, csv.length, users, user, iteration)];
        for (Value v : values[flow]) {
            Object value = switch (v.kind()) {
                case UNIFORM -> Long.toString(FlowValues.uniform(seed, v.name(), user, iteration, v.min(), v.max()));
                case UNIQUE -> Long.toString(FlowValues.unique(users, user, iteration));
                case CSV -> row[v.column()];
            };
            v.var().setObject(session, value);
        }
        if (sequences != null) {
            session.startSequence(sequences[flow], false, Session.ConcurrencyPolicy.FAIL);
        }
        return true;
    }

    /** Starts a user's iteration of flows: counts it, picks its flow and sets the flow's data. */
    @Name("loomflux-iteration")
    public static final class Builder implements StepBuilder<Builder> {
        private long seed;
        private int users = 1;
        private final Map<String, String> flows = new LinkedHashMap<>();
        private final Map<String, String> values = new LinkedHashMap<>();
        private final Map<String, String> csv = new LinkedHashMap<>();

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** The sessions one target's load has: each is user (its id modulo this). */
        public Builder users(int users) {
            this.users = users;
            return this;
        }

        /** A mix's flows: each flow's sequence and weight, in order. */
        public PairBuilder<String> flows() {
            return pairs(flows);
        }

        /** {@code flow.var}: {@code uniform MIN MAX}, {@code unique} or {@code csv COLUMN}. */
        public PairBuilder<String> values() {
            return pairs(values);
        }

        /** A flow's CSV file: {@code user PATH} (a row per user) or {@code iteration PATH} (a row per iteration). */
        public PairBuilder<String> csv() {
            return pairs(csv);
        }

        private static PairBuilder<String> pairs(Map<String, String> into) {
            return new PairBuilder.OfString() {
                @Override
                public void accept(String key, String value) {
                    into.put(key, value);
                }
            };
        }

        @Override
        public List<Step> build() {
            if (users < 1) {
                throw new BenchmarkDefinitionException("loomflux-iteration: users must be at least 1");
            }
            List<String> names = flows.isEmpty() ? List.of(values.keySet().stream().map(k -> k.substring(0, k.indexOf('.'))).findFirst().orElse(""))
                    : List.copyOf(flows.keySet());
            if (flows.isEmpty() && values.keySet().stream().map(k -> k.substring(0, k.indexOf('.'))).distinct().count() > 1) {
                throw new BenchmarkDefinitionException("loomflux-iteration: values of several flows need their flows and weights");
            }
            int n = names.size();
            int[] weights = new int[n];
            Value[][] perFlow = new Value[n][];
            String[][][] rows = new String[n][][];
            boolean[] perUser = new boolean[n];
            for (int i = 0; i < n; i++) {
                String flow = names.get(i);
                weights[i] = flows.isEmpty() ? 1 : Integer.parseInt(flows.get(flow).strip());
                FlowCsv table = table(flow);
                if (table != null) {
                    rows[i] = table.rows().stream().map(r -> r.toArray(String[]::new)).toArray(String[][]::new);
                    perUser[i] = table.per() == FlowCsv.Per.USER;
                }
                List<Value> own = new ArrayList<>();
                values.forEach((key, spec) -> {
                    if (key.startsWith(flow + ".")) {
                        own.add(value(key.substring(flow.length() + 1), spec.strip().split("\\s+"), table));
                    }
                });
                perFlow[i] = own.toArray(Value[]::new);
            }
            return List.of(new FlowIterationStep(seed, users, flows.isEmpty() ? null : names.toArray(String[]::new), weights, perFlow, rows, perUser));
        }

        private FlowCsv table(String flow) {
            String spec = csv.get(flow);
            if (spec == null) {
                return null;
            }
            String[] perAndPath = spec.strip().split("\\s+", 2);
            try {
                return FlowCsv.read(Path.of(perAndPath[1]), FlowCsv.Per.valueOf(perAndPath[0].toUpperCase(java.util.Locale.ROOT)));
            } catch (IOException | IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                throw new BenchmarkDefinitionException("loomflux-iteration: csv of " + flow + " '" + spec + "': " + e.getMessage());
            }
        }

        private static Value value(String var, String[] spec, FlowCsv table) {
            ObjectAccess access = SessionFactory.objectAccess(var);
            switch (spec[0]) {
                case "uniform":
                    return new Value(access, var, Draw.UNIFORM, Long.parseLong(spec[1]), Long.parseLong(spec[2]), -1);
                case "unique":
                    return new Value(access, var, Draw.UNIQUE, 0, 0, -1);
                case "csv":
                    if (table == null || !table.columns().contains(spec[1])) {
                        throw new BenchmarkDefinitionException("loomflux-iteration: " + var + " reads CSV column " + spec[1] + ", which its flow's csv lacks");
                    }
                    return new Value(access, var, Draw.CSV, 0, 0, table.columns().indexOf(spec[1]));
                default:
                    throw new BenchmarkDefinitionException("loomflux-iteration: " + var + ": expected uniform MIN MAX, unique or csv COLUMN, not " + String.join(" ", spec));
            }
        }
    }
}
