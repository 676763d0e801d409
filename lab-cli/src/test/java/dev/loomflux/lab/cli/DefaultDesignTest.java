package dev.loomflux.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.DriverChoice;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.ExperimentReader;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.main.Lab;
import dev.loomflux.lab.process.LabProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * One default everywhere (issue 46): ./lab run with or without a file, ./lab sweep and bring-your-own targets plan the
 * paired design unless a design is named; where it cannot measure the experiment, the plan is sequential and says why.
 * The plans only: nothing is started.
 */
class DefaultDesignTest {
    private final LabProcesses processes = new LabProcesses();

    @AfterEach
    void close() {
        processes.close();
    }

    /** The experiment ./lab {@code command} would measure with these arguments, as its {@link RunCommand#experiment()} plans it, the command made as ./lab makes it. */
    private Experiment plan(String command, String... args) {
        CommandLine lab = new CommandLine(new Lab(), new Lab.Factory(processes));
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(List.of(args));
        lab.parseArgs(all.toArray(String[]::new));
        return ((RunCommand) lab.getSubcommands().get(command).getCommand()).experiment();
    }

    /** A JMeter plan of your own runs one target after another without naming a design, as its one scenario, named after it. */
    @Test
    void aPlanOfYourOwnGivesWayToTheSequentialDesign() {
        Path plan = Home.detect().root().resolve("experiments").resolve("own-plan.jmx");
        Experiment own = plan("run", "--driver", "jmeter", "--plan", plan.toString(), "--targets", "mvc,webflux", "--users", "6", "--duration", "4s");
        assertFalse(own.inRounds(), own.design().toString());
        assertEquals(DriverChoice.PLAN_OBSTACLE, own.sequentialBecause());
        assertEquals("plan-own-plan", own.name());
        assertEquals(List.of(Scenario.plan("own-plan.jmx")), own.scenarios());
        assertEquals(new LoadProfile.Fixed(6, Duration.ofSeconds(4)), own.profile());
    }

    @Test
    void theBringYourOwnPresetIsPairedWithoutNamingADesign() {
        Experiment own = plan("run", "own-app");
        assertTrue(own.inRounds(), own.design().toString());
        assertFalse(own.design().named());
        assertEquals(1, own.sets(), "a file's sets: 1 unless it says");
        assertNull(own.sequentialBecause());
    }

    @Test
    void aTwoCellSweepIsPairedWithoutNamingADesign() {
        Experiment sweep = plan("sweep", "--targets", "mvc,webflux", "--scenario", "plaintext", "--vary", "users=4,16");
        assertTrue(sweep.inRounds(), sweep.design().toString());
        assertEquals(2, sweep.sweep().cells().size());
        assertEquals(1, sweep.sets(), "one set in a sweep");
        assertEquals(Design.DEFAULT_WARMUP, sweep.warmup(), "the paired warmup budget, as ./lab run's");
        Experiment named = plan("sweep", "--targets", "mvc,webflux", "--scenario", "plaintext", "--vary", "users=4,16", "--design", "sequential",
                "--repeat", "3", "--duration", "5s");
        assertEquals(Design.SEQUENTIAL, named.design());
        assertEquals(3, named.repeats());
    }

    /** Paired by default, a sweep takes the paired design's words: sets and rounds, not repeats and a duration. */
    @Test
    void aSweepWithoutADesignRefusesTheSequentialDesignsWords() {
        assertEquals("--repeat 3: the paired design measures sets of JVMs in the same rounds; use --sets 3", assertThrows(UsageException.class,
                () -> plan("sweep", "--targets", "mvc,webflux", "--scenario", "plaintext", "--vary", "users=4,16", "--repeat", "3")).getMessage());
        assertEquals("--duration applies to --design sequential; the paired design measures --rounds N blocks of --block TIME", assertThrows(UsageException.class,
                () -> plan("sweep", "--targets", "mvc,webflux", "--scenario", "plaintext", "--vary", "users=4,16", "--duration", "5s")).getMessage());
    }

    @Test
    void theDefaultRunIsUnchanged() {
        Experiment run = plan("run");
        assertTrue(run.inRounds());
        assertEquals(Design.DEFAULT, run.design());
        assertEquals(Design.DEFAULT_SETS, run.sets());
        assertEquals(Design.DEFAULT_WARMUP, run.warmup());
    }

    @Test
    void whereRoundsCannotMeasureTheDefaultGivesWayAndSaysWhy() {
        Experiment stages = plan("run", "--targets", "mvc", "--profile", "stages", "--stages", "5s:2");
        assertEquals(Design.fallback("a steady load (a fixed or rate profile, no sweep)"), stages.design());
        assertTrue(plan("run", "--targets", "mvc", "--driver", "jmeter", "--agents", "2").inRounds(), "the lab conducts the agents' rounds");
        Experiment rate = plan("run", "--targets", "mvc", "--driver", "jmeter", "--profile", "rate", "--rps", "10");
        assertEquals("the Hyperfoil driver for rate blocks", rate.sequentialBecause());
        Experiment think = plan("run", "--targets", "mvc", "--think", "100ms..200ms");
        assertEquals("blocks of 10 of the longest pause, 2000ms, not 1000ms (--block, block:)", think.sequentialBecause());
        assertTrue(plan("run", "--targets", "mvc", "--think", "100ms..200ms", "--block", "2s").inRounds(), "a block that holds the pauses");
    }

    /** Named paired stays paired: a shape is measured in rounds of whole shapes (docs/guide.md, "Shapes in rounds"). */
    @Test
    void namedPairedStaysPaired() {
        Experiment stages = plan("run", "--targets", "mvc", "--profile", "stages", "--stages", "5s:2", "--design", "paired");
        assertEquals(Design.PAIRED, stages.design());
        assertTrue(stages.inRounds());
        assertNull(stages.sequentialBecause());
        Experiment unnamed = plan("run", "--targets", "mvc", "--profile", "stages", "--stages", "5s:2");
        assertFalse(unnamed.inRounds(), "unnamed, a shape is still measured one target after another");
    }

    /** Every preset plans as its command runs it, and none leaves its design to the fallback: it is in rounds or says sequential. */
    @Test
    void everyPresetIsInRoundsOrNamesTheSequentialDesign() throws IOException {
        List<Path> presets;
        try (Stream<Path> files = Files.list(Home.detect().root().resolve("experiments"))) {
            presets = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(presets.size() >= 20, presets.toString());
        for (Path preset : presets) {
            String name = preset.getFileName().toString().replace(".yaml", "");
            // petclinic.yaml asks for the jar it starts; any file will do to plan it
            Experiment e = name.equals("petclinic") ? plan("run", name, "--param", "jar=" + preset)
                    : plan(ExperimentReader.read(preset, Drivers.ALL).sweep() != null ? "sweep" : "run", name);
            assertTrue(e.inRounds() || e.design().equals(Design.SEQUENTIAL), name + ": " + e.design());
        }
    }

    /**
     * The presets that replay a seed or a peer one target after another name the sequential design; the rest take the default,
     * or name the paired design over a shape (seeds 000, 001 and 004 and the peer's spikes: whole shapes in rounds).
     */
    @Test
    void thePresetsThatMeasureOneTargetAfterAnotherSayIt() {
        Experiment shape = plan("run", "seed-000-k6-stages");
        assertTrue(shape.inRounds() && shape.design().named(), shape.design().toString());
        assertTrue(plan("run", "seed-003-gateway-latency").inRounds());
        assertTrue(plan("run", "seed-002-ab-tomcat-threads").inRounds());
        for (String spike : List.of("peer-25k-smooth-spike", "peer-25k-smooth-spike-get-post", "peer-25k-stepped-spike")) {
            Experiment e = plan("run", spike);
            assertTrue(e.inRounds() && e.design().named() && e.design().fixedRounds() && e.sets() == 1, spike + ": " + e.design());
        }
        assertTrue(plan("run", "seed-001-jmeter-users").inRounds() && plan("run", "seed-004-gatling-burst").inRounds());
        for (String preset : List.of("cpu-quotas", "example")) {
            assertEquals(Design.SEQUENTIAL, plan("run", preset).design(), preset);
        }
        for (String sweep : List.of("map-cpu", "map-db", "map-gateway", "vt-processor-cache")) {
            Experiment e = plan("sweep", sweep);
            assertEquals(Design.SEQUENTIAL, e.design(), sweep);
            assertEquals(3, e.repeats(), sweep);
        }
        assertTrue(plan("run", "peer-smoketest").inRounds(), "every peer preset in rounds by default");
        for (String paired : List.of("peer-10k", "peer-10k-depth-1", "peer-1k-no-delay", "peer-5k")) {
            Experiment e = plan("run", paired);
            assertTrue(e.inRounds(), paired);
            assertEquals(Duration.ofSeconds(75), e.warmup(), paired);
        }
    }
}
