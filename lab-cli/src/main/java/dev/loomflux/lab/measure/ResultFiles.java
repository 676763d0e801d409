package dev.loomflux.lab.measure;

import dev.loomflux.lab.driver.FlowMeasurement;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.cpuprofile.ProfileSource;
import dev.loomflux.lab.cpuprofile.TargetProfile;
import dev.loomflux.lab.cpuprofile.TimeWindow;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.Hlog;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.SeriesCsv;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * The files of one result in the run's directory, all named from one stem ({@code mvc.json}, {@code mvc.json.r2.step3},
 * {@code mvc.json.users64.s2}), over its measured time windows: the sequential design's one window, or a JVM's blocks in the
 * paired design. The latency logs (.hlog, and one per agent, flow and step), the driver's plan, the JFR recording, the
 * per-second series (.series.csv) and the CPU profile read from the recording over those windows (.collapsed).
 */
public final class ResultFiles {
    private final Path dir;
    private final String stem;
    private final List<TimeWindow> windows;

    /**
     * What tells apart the files of one target and scenario: a sweep cell's load axes, and the sequential design's repeat
     * (with more than one) and capacity step, or the paired design's set (with more than one); 0 where there is none.
     */
    public record Tag(String cell, int repeat, int step, int set) {
        public static final Tag NONE = new Tag("", 0, 0, 0);

        /** A sweep cell's: the scenario's name already carries its request parameters, the profile's are added here. */
        public static Tag of(Map<String, Integer> cell, Scenario scenario) {
            StringBuilder sb = new StringBuilder();
            cell.forEach((k, v) -> {
                if (!scenario.orderedParams().containsKey(k)) {
                    sb.append('.').append(k).append(v);
                }
            });
            return new Tag(sb.toString(), 0, 0, 0);
        }

        /** With the sequential design's repeat, named only when there are {@code repeats} of them. */
        public Tag repeat(int repeat, int repeats) {
            return new Tag(cell, repeats > 1 ? repeat : 0, step, set);
        }

        /** With a capacity search's step. */
        public Tag step(int step) {
            return new Tag(cell, repeat, step, set);
        }

        /** With the paired design's set, named only when there are {@code sets} of them. */
        public Tag set(int set, int sets) {
            return new Tag(cell, repeat, step, sets > 1 ? set : 0);
        }

        private String suffix() {
            return (repeat > 0 ? ".r" + repeat : "") + cell + (step > 0 ? ".step" + step : "") + (set > 0 ? ".s" + set : "");
        }
    }

    private ResultFiles(Path dir, String stem, List<TimeWindow> windows) {
        this.dir = dir;
        this.stem = stem;
        this.windows = List.copyOf(windows);
    }

    /** One target's files of a scenario, over its measured windows. */
    public static ResultFiles of(Path dir, String target, String scenario, Tag tag, List<TimeWindow> windows) {
        return new ResultFiles(dir, target + "." + scenario + tag.suffix(), windows);
    }

    /** The plan of a scenario's rounds, which every target and set share: {@code rounds.json}. */
    public static String writeRoundsPlan(Path dir, String scenario, Tag tag, Function<String, LoadDriver.Plan> export) {
        return new ResultFiles(dir, "rounds." + scenario + tag.suffix(), List.of()).plan(export);
    }

    /** The name every file starts with. */
    public String stem() {
        return stem;
    }

    /** The load's latency log, one interval per second or per block; returns its file name. */
    public String hlog(String comment, List<Histogram> intervals) {
        String file = stem + ".hlog";
        Hlog.write(dir.resolve(file), comment, intervals);
        return file;
    }

    /** The name of an agent's latency log beside the load's, by its index: the agent's number, as the report lists them. */
    public String agentHlogName(int agent) {
        return stem + ".agent" + (agent + 1) + ".hlog";
    }

    /** An agent's latency log; returns its file name. */
    public String agentHlog(int agent, String comment, List<Histogram> intervals) {
        String file = agentHlogName(agent);
        Hlog.write(dir.resolve(file), comment, intervals);
        return file;
    }

    /**
     * The same load as the driver's own file, e.g. for a Hyperfoil controller with agents on other machines
     * (docs/scale-out.md); returns its file name.
     *
     * @param export the driver's plan, given the load's name inside it
     */
    public String plan(Function<String, LoadDriver.Plan> export) {
        return export.apply("loomflux-" + stem).write(dir, stem);
    }

    /** The file name of the target's JFR recording. */
    public String jfr() {
        return stem + ".jfr";
    }

    /**
     * Dumps the target's JFR recording to {@link #jfr()}.
     *
     * @param dump dumps to the path given; null when dumped, else why not
     * @return null when dumped, else why not
     */
    public String dumpJfr(Function<Path, String> dump) {
        return dump.apply(dir.resolve(jfr()));
    }

    /** The per-second series; returns its file name. */
    public String seriesCsv(List<Result.PerSecond> series) {
        String file = stem + ".series.csv";
        SeriesCsv.write(dir.resolve(file), series);
        return file;
    }

    /** Each flow and step over the windows, with its latency logs ({@link FlowResults}). */
    public List<FlowResult> flows(List<FlowMeasurement> flows, String comment) {
        long from = windows.isEmpty() ? 0 : windows.get(0).start().toEpochMilli();
        long to = windows.isEmpty() ? 0 : windows.get(windows.size() - 1).end().toEpochMilli();
        return FlowResults.of(flows, dir, stem, comment, from, to);
    }

    /**
     * The CPU profile read from the recording over the windows ({@link TargetProfile#write}).
     *
     * @param source          the recording, or why there is none
     * @param cpuMsPerRequest the result's own CPU per request in ms, null when it has none
     * @param log             takes the one line that says why there is no profile
     */
    public TargetProfile.Profiled profile(ProfileSource source, Double cpuMsPerRequest, CategoryRules categories, Consumer<String> log) {
        return TargetProfile.write(dir, stem, source, windows, cpuMsPerRequest, categories, log);
    }
}
