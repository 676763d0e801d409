package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.DriverSetup;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.jmeter.OwnPlan;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.DriverCatalog;
import dev.loomflux.lab.experiment.DriverChoice;
import dev.loomflux.lab.experiment.DriverTraits.Capability;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * Which load driver a command loads with, where its agents are, and whether it runs a plan of the user's own: the
 * flags, else the experiment file's {@code driver}. It knows the drivers by what they describe of themselves
 * (the registry, {@link Drivers}), never by name.
 */
public final class DriverOptions {
    private final LabProcesses processes;
    private final DriverCatalog<? extends DriverType> drivers;

    // Each help text below is computed from the registry: picocli puts an option's completion candidates into its description.
    @Option(names = "--driver", paramLabel = "NAME", completionCandidates = DriverHelp.class, description = "Load driver: ${COMPLETION-CANDIDATES}")
    String driver;

    @Option(names = "--agents", paramLabel = "N|HOST:PORT,...", completionCandidates = AgentsHelp.class,
            description = "${COMPLETION-CANDIDATES}: run each load on agents, users and rates split over them: N agents the lab starts on 127.0.0.1, or agents"
                    + " started with ./lab agent on other hosts. Default: the experiment file's, else one local ${COMPLETION-CANDIDATES}.")
    String agents;

    @Option(names = "--agent-keystore", paramLabel = "FILE", description = "The keystore the agents on other hosts were started with (./lab agent made it).")
    Path agentKeystore;

    @Option(names = "--plan", paramLabel = "FILE.jmx", completionCandidates = PlanHelp.class,
            description = "${COMPLETION-CANDIDATES}: run this plan of your own against each target, one after another, instead of a scenario. The lab sets the ${COMPLETION-CANDIDATES}"
                    + " properties " + OwnPlan.HOST + " and " + OwnPlan.PORT + " to each target's, " + OwnPlan.USERS + " and " + OwnPlan.DURATION
                    + " (seconds) to each load's; every HTTP sampler must read $${__P(" + OwnPlan.HOST + ")} and $${__P(" + OwnPlan.PORT + ")}"
                    + " (docs/scale-out.md).")
    Path plan;

    public DriverOptions(LabProcesses processes) {
        this(processes, Drivers.ALL);
    }

    /** @param drivers the drivers to choose from: the registry's, or a test's */
    DriverOptions(LabProcesses processes, DriverCatalog<? extends DriverType> drivers) {
        this.processes = processes;
        this.drivers = drivers;
    }

    /** The file's choice as the flags leave it: --driver another driver drops the file's agents too. */
    private DriverChoice kept(DriverChoice file) {
        return driver != null && !driver.equals(file.name()) ? DriverChoice.NONE : file;
    }

    private String name(DriverChoice file) {
        return driver != null ? driver : file.name() != null ? file.name() : drivers.byDefault().name();
    }

    /**
     * Why the driver the flags and the file choose cannot run interleaved rounds ({@link DriverCatalog#roundsObstacle}); null when it can.
     *
     * @param fromFile the experiment file's choice ({@link DriverChoice#NONE} without one), which the flags override
     * @param rate     whether the profile is a rate
     */
    String roundsObstacle(DriverChoice fromFile, boolean rate) {
        if (plan != null || fromFile.plan() != null) {
            return DriverChoice.PLAN_OBSTACLE;
        }
        return drivers.roundsObstacle(name(kept(fromFile)), rate);
    }

    /**
     * The driver the flags and the file choose, refused in one line naming the flag or field when it cannot run the load.
     *
     * @param fromFile the experiment file's choice ({@link DriverChoice#NONE} without one), which the flags override
     * @param inRounds whether the load is interleaved rounds (the paired design)
     * @param rate     whether the profile is a rate (in rounds, so are its blocks)
     */
    LoadDriver driver(DriverChoice fromFile, boolean inRounds, boolean rate) {
        if (plan != null || fromFile.plan() != null) {
            return ownPlan(fromFile, inRounds);
        }
        DriverChoice file = kept(fromFile);
        DriverType type = drivers.find(name(file));
        if ((agents != null || agentKeystore != null) && (type == null || !type.can(Capability.AGENTS))) {
            throw new UsageException((agents != null ? "--agents" : "--agent-keystore") + ": " + drivers.with(Capability.AGENTS).stream()
                    .map(d -> d.title() + "'s").collect(Collectors.joining(" or ")) + " agents; add --driver " + drivers.names(Capability.AGENTS));
        }
        String named = driver != null ? "--driver " + driver : file.where();
        type = drivers.named(name(file), named);
        if (inRounds && !type.can(Capability.ROUNDS)) {
            throw new UsageException(named + ": the paired design's rounds need the " + drivers.titles(Capability.ROUNDS) + " driver; use --design sequential");
        }
        if (inRounds && rate && !type.can(Capability.RATE_BLOCKS)) {
            throw new UsageException(named + ": the paired design's rate blocks need the " + drivers.titles(Capability.RATE_BLOCKS)
                    + " driver; use --profile fixed or --design sequential");
        }
        if (rate && !type.can(Capability.OPEN_MODEL)) {
            throw new UsageException(named + ": a rate profile needs the " + drivers.titles(Capability.OPEN_MODEL) + " driver; use --profile fixed");
        }
        return type.create(new DriverSetup(processes, agents(file), null));
    }

    /**
     * The experiment with the plan of {@code --plan} as its one scenario, named after it unless --name names it: the
     * plan's samplers send the requests, under the fixed profile's users and duration. A file names its plan in
     * driver.NAME.plan and the reader makes it the file's scenario. The plan cannot vary a sweep's cells.
     *
     * @param fromFile whether the experiment came from a file
     */
    Experiment withPlan(Experiment e, ParseResult given, boolean fromFile) {
        if (plan == null && e.driver().plan() == null) {
            return e;
        }
        String where = plan != null ? "--plan" : e.driver().planWhere();
        if (e.sweep() != null) {
            throw new UsageException(where + ": a sweep varies the lab's own load and scenarios; run the plan with ./lab run");
        }
        if (plan == null) {
            return e;
        }
        if (fromFile) {
            throw new UsageException("--plan cannot be combined with an experiment file; name the plan in the file: driver: {"
                    + drivers.names(Capability.OWN_PLANS) + ": {plan: FILE.jmx}}");
        }
        for (String flag : ScenarioOptions.FLAGS) {
            if (given.hasMatchedOption(flag)) {
                throw new UsageException(flag + " cannot be combined with --plan: the plan's samplers send the requests");
            }
        }
        if (!(e.profile() instanceof LoadProfile.Fixed fixed) || !fixed.think().none()) {
            throw new UsageException("--plan: a plan of your own runs under the fixed profile without --think: the lab gives it --users and --duration,"
                    + " its own timers are its pauses");
        }
        Scenario scenario = Scenario.plan(plan.getFileName().toString());
        return e.toBuilder().name(given.hasMatchedOption("--name") ? e.name() : Experiment.nameFrom(scenario.name())).scenarios(java.util.List.of(scenario)).build();
    }

    /**
     * A driver on the user's plan, loaded and checked before anything starts: in the sequential design, on one local process
     * (an agent would run all of the plan's users).
     */
    private LoadDriver ownPlan(DriverChoice file, boolean inRounds) {
        Path path = plan != null ? plan : file.plan();
        String where = plan != null ? "--plan " + plan : file.planWhere() + " " + file.plan();
        String other = driver != null ? driver : plan != null ? file.name() : null;
        DriverType type = other == null ? drivers.with(Capability.OWN_PLANS).get(0) : drivers.find(other);
        if (type == null || !type.can(Capability.OWN_PLANS)) {
            String titles = drivers.titles(Capability.OWN_PLANS);
            throw new UsageException(where + ": a " + titles + " plan runs on the " + titles + " driver, not " + (driver != null ? "--driver " : file.where() + " ") + other);
        }
        if (agents != null || agentKeystore != null || (plan == null && file.agents() != null)) {
            throw new UsageException(where + ": a plan of your own runs on one local " + type.title() + ", not on agents (each agent would run all of its users)");
        }
        if (inRounds) {
            throw new UsageException(where + ": a plan of your own runs in the sequential design (the paired design's rounds are plans the lab writes);"
                    + " use --design sequential");
        }
        return type.create(new DriverSetup(processes, null, new DriverSetup.PlanFile(path, where)));
    }

    /** The agents the flags or the file give, with what their errors name; null for none. */
    private DriverSetup.Agents agents(DriverChoice file) {
        String value = agents != null ? agents : file.agents();
        if (value == null) {
            return null;
        }
        Path keystore = agentKeystore != null ? agentKeystore : file.keystore();
        return agents != null ? DriverSetup.Agents.flags(agents, keystore)
                : new DriverSetup.Agents(value, keystore, file.agentsWhere(), file.agentsWhere(), agentKeystore != null ? "--agent-keystore" : "keystore",
                agentKeystore != null ? "--agent-keystore " + keystore : file.keystoreWhere() + " " + keystore);
    }

    /** --driver's help: each driver's name and description, and the default. */
    static final class DriverHelp implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            DriverCatalog<? extends DriverType> all = Drivers.ALL;
            return List.of(all.all().stream().map(d -> d.name() + " (" + d.description() + ")").collect(Collectors.joining(" or "))
                    + ". Default: the experiment file's driver, else " + all.byDefault().name() + ".").iterator();
        }
    }

    /** --agents' help: the drivers with agents. */
    static final class AgentsHelp implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of(Drivers.ALL.titles(Capability.AGENTS)).iterator();
        }
    }

    /** --plan's help: the drivers that run plans of the user's own. */
    static final class PlanHelp implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of(Drivers.ALL.titles(Capability.OWN_PLANS)).iterator();
        }
    }
}
