package dev.loomflux.lab.measure;

import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.sut.Downstream;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.telemetry.CpuCanary;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.net.URI;
import java.nio.file.Path;

/**
 * What every part of a run works with, made once per run by the Runner: where the run writes (its results
 * directory, run.log), the machine (launch settings, CPU plan, resource sampler, CPU canary), the load (the
 * driver, and whether the run was told to stop) and the support processes (database, stub).
 *
 * @param dir     the run's results directory
 * @param stop    whether the run was told to stop: work in progress then ends, and what it measured is no result
 * @param support the database and the stub, once they are up
 */
public record RunContext(Path dir, Log log, Machine machine, LoadDriver driver, Stop stop, Support support) {
    /** Where the targets find the stub when the run has none: a port nothing listens on. */
    private static final URI NO_STUB = URI.create("http://127.0.0.1:9");

    /**
     * Where and how the targets run, what watches the machine, and how the targets' CPU profiles are read.
     *
     * @param canary     the CPU canary, or null
     * @param categories the rules that put a profile's stack in its category
     */
    public record Machine(LaunchSettings settings, CpuPlan cpus, ResourceSampler sampler, CpuCanary canary, CategoryRules categories) {
    }

    /**
     * The run's support processes, each null when no scenario needs it; a restart of one during a measurement voids it.
     */
    public record Support(Database database, Downstream stub) {
        public static final Support NONE = new Support(null, null);
    }

    /** The same run once its support processes are up. */
    public RunContext with(Support up) {
        return new RunContext(dir, log, machine, driver, stop, up);
    }

    /** The rules that put a profile's stack in its category. */
    public CategoryRules categories() {
        return machine.categories();
    }

    public LaunchSettings settings() {
        return machine.settings();
    }

    public CpuPlan cpus() {
        return machine.cpus();
    }

    public ResourceSampler sampler() {
        return machine.sampler();
    }

    /** The CPU canary, or null. */
    public CpuCanary canary() {
        return machine.canary();
    }

    /** The database, or null. */
    public Database database() {
        return support.database();
    }

    /** The stub, or null. */
    public Downstream stub() {
        return support.stub();
    }

    /** The stub's address, as the targets are told it. */
    public URI stubUri() {
        return support.stub() == null ? NO_STUB : support.stub().base();
    }
}
