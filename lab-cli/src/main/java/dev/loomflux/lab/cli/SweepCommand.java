package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Sweep;
import dev.loomflux.lab.process.LabProcesses;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** ./lab run with a grid: where each model wins (docs/sweep.md). */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false, abbreviateSynopsis = true, modelTransformer = OptionSections.class,
        description = {"Measure every target in every cell of a grid of one or two parameters, and map where each model wins.",
                "Per cell and metric the map names the winner where it is clear, and where the winner changes.",
                "Takes everything ./lab run takes; an experiment file gives the grid in its sweep section, flags with --vary (docs/sweep.md)."})
public final class SweepCommand extends RunCommand {
    @Option(names = "--vary", paramLabel = "NAME=V1,V2,...",
            description = {"A parameter and its values, once or twice: users, rate, delay, depth, page, size, work (same JVM, new load),",
                    "property:NAME or jvm:FLAG{} (a JVM per value), e.g. --vary users=10,100,1000 --vary delay=0,20,100.",
                    "Replaces an experiment file's grid."})
    List<String> vary;

    @Option(names = "--cell-warmup", paramLabel = "TIME",
            description = "Most warmup of each cell after a target's first, until steady. Default: 60s.")
    String cellWarmup;

    public SweepCommand(LabProcesses processes) {
        super(processes);
    }

    @Override
    Experiment adjust(Experiment e) {
        if (vary == null) {
            if (e.sweep() == null) {
                throw new UsageException("sweep: give --vary NAME=V1,V2,... (once or twice) or an experiment file with a sweep section");
            }
            return cellWarmup == null ? e : swept(e, new Sweep(e.sweep().axes(), Flags.duration("--cell-warmup", cellWarmup, true)));
        }
        if (vary.size() > Sweep.MAX_AXES) {
            throw new UsageException("--vary: at most " + Sweep.MAX_AXES + " parameters, got " + vary.size());
        }
        // --vary replaces a file's grid, as other flags replace its fields: a preset's corner, e.g.
        // ./lab sweep map-gateway --vary delay=0,100 --vary users=1000
        Sweep.Axis[] axes = vary.stream().map(v -> Sweep.axis(v, "--vary")).toArray(Sweep.Axis[]::new);
        Duration warm = cellWarmup != null ? Flags.duration("--cell-warmup", cellWarmup, true)
                : e.sweep() != null ? e.sweep().cellWarmup() : Sweep.DEFAULT_CELL_WARMUP;
        return swept(e, new Sweep(List.of(axes), warm));
    }

    private static Experiment swept(Experiment e, Sweep grid) {
        grid.check(e);
        return e.toBuilder().sweep(grid).build();
    }
}
