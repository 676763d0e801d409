package dev.loomflux.lab.cli;

import picocli.CommandLine.Option;

/** Where a run's files go: results/RUN-ID/, the id ending in the experiment's name. */
public final class OutputOptions {
    @Option(names = "--name", description = "Experiment name (part of the run id). Default: the file name or the scenarios.")
    String name;
}
