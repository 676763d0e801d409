package dev.loomflux.lab.driver.hyperfoil;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.BlockTally;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.driver.FlowMetrics;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.MeasuredWindow;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.driver.Tally;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkData;
import io.hyperfoil.core.parser.BenchmarkParser;
import io.hyperfoil.core.parser.ParserException;
import dev.loomflux.lab.experiment.LoadProfile;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The lab's first load driver: Hyperfoil 0.25.2 embedded in the lab's JVM. Every request is a GET on a
 * keep-alive HTTP/1.1 connection from one shared pool, one request at a time per connection, with
 * {@code cache-control: no-store} so that Hyperfoil's per-user HTTP cache never answers in the
 * target's place. A 4xx or 5xx is counted and the user carries on.
 *
 * <p>How each profile runs:
 * <ul>
 * <li>fixed: N users for the duration, each sending its next request when the previous answers;</li>
 * <li>stages: the k6 ramp, users added and removed on whole seconds;</li>
 * <li>loops: N users each sending L requests, started evenly over 1 s;</li>
 * <li>burst: N users started at once, each sending L requests;</li>
 * <li>rate: arrivals on a fixed schedule (no randomness), each sending one request, at most
 *     maxInFlight requests in flight; arrivals beyond that wait for a free session and the run is behind schedule.</li>
 * </ul>
 * Connections: as many as users at the peak (max in flight for rate), opened before the load starts;
 * with several event loops a ramp may get a few more, so that no user waits for a connection.
 */
public final class Hyperfoil implements LoadDriver {
    private static final String RUN_NAME = "loomflux";
    private static final String SUFFIX = ".hyperfoil.yaml";
    private final Set<EmbeddedBenchmark> running = ConcurrentHashMap.newKeySet();

    @Override
    public DriverType type() {
        return new HyperfoilType();
    }

    /**
     * With a window the load ends once the window is over (or {@code enough} says so, or the profile's
     * duration ends), and the Measurement holds the window's seconds only, numbered from 0. Until the
     * window starts, the listener sees warmup seconds.
     */
    @Override
    public Measurement run(LoadSpec spec, SecondListener listener, BooleanSupplier enough, MeasuredWindow window) {
        PhasePlan plan = PhasePlan.of(spec.profile(), spec.threads());
        Benchmark benchmark = parse(BenchmarkYaml.render(spec, plan, RUN_NAME, true));
        Tally tally = new Tally(plan, listener != null ? listener : s -> { }, window, spec.requestTimeout().toMillis(),
                spec.mix() == null ? null : new FlowMetrics(spec.mix()));
        if (window != null) {
            window.clock(() -> tally.elapsed(System.currentTimeMillis()));
        }
        BooleanSupplier done = () -> tally.done(window, enough, System.currentTimeMillis());
        EmbeddedBenchmark run = new EmbeddedBenchmark(benchmark, spec.authority(), tally, done);
        running.add(run);
        try {
            return tally.finish(run.execute());
        } finally {
            running.remove(run);
        }
    }

    @Override
    public List<Block> run(Rounds rounds, Rounds.Listener listener) {
        Benchmark benchmark = parse(BenchmarkYaml.render(rounds, RUN_NAME, true));
        BlockTally tally = new BlockTally(rounds, listener, rounds.block() instanceof LoadProfile.Rate r ? r.rps() : 0);
        int targets = rounds.targets().size();
        EmbeddedBenchmark run = new EmbeddedBenchmark(benchmark, rounds.targets().get(0).base().toString(), tally, () -> false, rounds.sequence(),
                i -> i % targets != 0 || listener.more(i / targets));
        running.add(run);
        try {
            run.execute();
            return tally.blocks();
        } finally {
            running.remove(run);
        }
    }

    /** Requests still in flight are left out of what a cancelled run returns. */
    @Override
    public void cancel() {
        running.forEach(EmbeddedBenchmark::cancel);
    }

    /** YAML for Hyperfoil's {@code BenchmarkParser} (a controller, {@code hf run}): the benchmark {@link #run} executes. */
    @Override
    public Plan export(LoadSpec spec, String name) {
        return new Plan(SUFFIX, BenchmarkYaml.render(spec, PhasePlan.of(spec.profile(), spec.threads()), benchmarkName(name), false));
    }

    @Override
    public Plan export(Rounds rounds, String name) {
        return new Plan(SUFFIX, BenchmarkYaml.render(rounds, benchmarkName(name), false));
    }

    /** Letters, digits and '-': a file's base name may hold dots and the sweep cell's '='. */
    private static String benchmarkName(String name) {
        return name.replaceAll("[^A-Za-z0-9-]", "-");
    }

    private static Benchmark parse(String yaml) {
        try {
            BenchmarkParser parser = BenchmarkParser.instance();
            return parser.buildBenchmark(parser.createSource(yaml, BenchmarkData.EMPTY), Map.of());
        } catch (ParserException e) {
            // The YAML is generated, so this is a bug in the lab, not bad input.
            throw new IllegalStateException("Hyperfoil rejected the generated benchmark: " + e.getMessage() + "\n" + yaml, e);
        }
    }
}
