package dev.loomflux.lab.driver;

import dev.loomflux.lab.TextFile;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A load generator as the lab uses one: a plan goes in (a {@link LoadSpec}, or {@link Rounds} of
 * blocks), each second goes out to a listener while the load runs, the measurement comes back.
 * {@link Hyperfoil} is the first; its state (the loads it runs now) belongs to the instance, so a
 * cancel stops that driver's loads and no other's.
 */
public interface LoadDriver {
    /** What it is as the registry lists it: its name, title, capabilities and timing. */
    DriverType type();

    /** As results.json and the report name it: "hyperfoil", "jmeter". */
    default String name() {
        return type().name();
    }

    /**
     * One continuous load of which only the {@code window}'s seconds are measured (the whole load when
     * null). Blocks until it is over, {@code enough} says so (asked after each second), or it is
     * {@link #cancel() cancelled}.
     *
     * @param listener gets each second as it completes
     * @throws dev.loomflux.lab.LabException with a one-line reason when the target cannot be reached or the driver fails
     */
    Measurement run(LoadSpec spec, SecondListener listener, BooleanSupplier enough, MeasuredWindow window);

    default Measurement run(LoadSpec spec, SecondListener listener, BooleanSupplier enough) {
        return run(spec, listener, enough, null);
    }

    default Measurement run(LoadSpec spec, SecondListener listener) {
        return run(spec, listener, () -> false, null);
    }

    /**
     * Runs interleaved rounds, one block at a time, until the last block ended or the load was
     * cancelled; a cancel keeps the blocks that ended.
     *
     * @return the blocks that ended, in the order they ran
     */
    List<Block> run(Rounds rounds, Rounds.Listener listener);

    /**
     * Processes of its own the driver runs now besides the lab's JVM (JMeter's), whose CPU is the driver's too;
     * none for a driver inside the lab's JVM.
     */
    default List<ProcessHandle> processes() {
        return List.of();
    }

    /**
     * Whether its loads keep a length of their own whatever the spec's profile says (a user's JMeter plan whose thread
     * groups have their own loop counts or durations): the lab cannot then go on from a warmup into a measured window
     * in one load, and measures a whole load instead (docs/scale-out.md, "Your own JMeter plan").
     */
    default boolean keepsOwnLength() {
        return false;
    }

    /** What the driver can tell of its last load beyond the measurement, a line each for the run's log; none by default. */
    default List<String> lastLoadLines() {
        return List.of();
    }

    /**
     * Stops every load this driver runs now (Ctrl-C, a target that died). Each run returns within about
     * a second with what was measured so far; loads started afterwards are not affected.
     */
    void cancel();

    /**
     * The same load as the driver's own file, to run it without the lab (docs/scale-out.md).
     *
     * @param name the load's name inside the file; the driver makes it one its own tool accepts
     */
    Plan export(LoadSpec spec, String name);

    /** The rounds as the driver's own file. */
    Plan export(Rounds rounds, String name);

    /** A driver's plan file: the end of its name (e.g. {@code .hyperfoil.yaml}) and its text. */
    record Plan(String suffix, String text) {
        /** Writes it into {@code dir} as {@code base} and its suffix; returns that file's name. */
        public String write(Path dir, String base) {
            String file = base + suffix;
            TextFile.write(dir.resolve(file), text);
            return file;
        }
    }
}
