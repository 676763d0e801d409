package dev.loomflux.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.FakeDriver;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.DriverChoice;
import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The flags override the experiment file's driver; the file's agents go with the file's driver. */
class DriverOptionsTest {
    private static final DriverChoice ON_AGENTS = new DriverChoice("jmeter", "x.yaml: driver", "2", null);
    private final LabProcesses processes = new LabProcesses();

    @AfterEach
    void close() {
        processes.close();
    }

    @Test
    void theFilesJmeterAgentsRunInterleavedRoundsButNoRateBlocks() {
        DriverOptions options = new DriverOptions(processes);
        assertNull(options.roundsObstacle(ON_AGENTS, false), "the lab conducts every agent's rounds");
        assertEquals("jmeter", options.driver(ON_AGENTS, true, false).name());
        assertEquals("the Hyperfoil driver for rate blocks", options.roundsObstacle(ON_AGENTS, true));
    }

    @Test
    void anotherDriverOnTheCommandLineTakesTheFilesAgentsAway() {
        DriverOptions options = new DriverOptions(processes);
        options.driver = "hyperfoil";
        assertNull(options.roundsObstacle(ON_AGENTS, true));
        assertEquals("hyperfoil", options.driver(ON_AGENTS, true, false).name());
    }

    @Test
    void agentsOnTheCommandLineReplaceTheFilesAndNameTheFlag() {
        DriverOptions options = new DriverOptions(processes);
        options.agents = "9";
        assertEquals("--agents 9: expected 1..8 local agents, or HOST:PORT,... of agents started with ./lab agent",
                assertThrows(UsageException.class, () -> options.driver(ON_AGENTS, true, false)).getMessage());
    }

    @Test
    void aPlanOfYourOwnInTheFileOrOnTheCommandLineMakesTheRunSequential() {
        DriverOptions options = new DriverOptions(processes);
        DriverChoice inFile = new DriverChoice("jmeter", "x.yaml: driver", null, null, Path.of("own-plan.jmx"));
        assertEquals(DriverChoice.PLAN_OBSTACLE, options.roundsObstacle(inFile, false));
        assertEquals(DriverChoice.PLAN_OBSTACLE, inFile.roundsObstacle(Drivers.ALL, false), "as the file's reader decides its design");
        options.plan = Path.of("own-plan.jmx");
        assertEquals(DriverChoice.PLAN_OBSTACLE, options.roundsObstacle(DriverChoice.NONE, false));
    }

    @Test
    void withoutFlagsOrFileItIsHyperfoil() {
        DriverOptions options = new DriverOptions(processes);
        assertNull(options.roundsObstacle(DriverChoice.NONE, true));
        assertEquals("hyperfoil", options.driver(DriverChoice.NONE, true, true).name());
    }

    /** A driver added to the registry is chosen, refused and made by what it says of itself, never by its name. */
    @Test
    void aDriverAddedToTheRegistryIsTreatedByItsOwnDescription() {
        DriverOptions options = new DriverOptions(processes, FakeDriver.CATALOG);
        options.driver = "fake";
        options.agents = "3";
        FakeDriver made = (FakeDriver) options.driver(DriverChoice.NONE, true, false);
        assertEquals("3", made.setup.agents().value(), "its agents, as the flag gave them");
        assertEquals("--agents 3", made.setup.agents().where());
        assertEquals("the Hyperfoil driver for rate blocks", options.roundsObstacle(DriverChoice.NONE, true));
        assertEquals("--driver fake: the paired design's rate blocks need the Hyperfoil driver; use --profile fixed or --design sequential",
                assertThrows(UsageException.class, () -> options.driver(DriverChoice.NONE, true, true)).getMessage());
        assertEquals("--driver fake: a rate profile needs the Hyperfoil driver; use --profile fixed",
                assertThrows(UsageException.class, () -> options.driver(DriverChoice.NONE, false, true)).getMessage());
        options.driver = "hyperfoil";
        assertEquals("--agents: Fake's agents; add --driver fake", assertThrows(UsageException.class, () -> options.driver(DriverChoice.NONE, true, false)).getMessage());
        options.agents = null;
        options.driver = "jmeter";
        assertEquals("--driver jmeter: expected hyperfoil or fake", assertThrows(UsageException.class, () -> options.driver(DriverChoice.NONE, true, false)).getMessage());
    }
}
