package dev.loomflux.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.DriverChoice;
import dev.loomflux.lab.process.LabProcesses;
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
    void theFilesJmeterAgentsMakeTheRunSequentialAndAreRefusedInRounds() {
        DriverOptions options = new DriverOptions(processes);
        assertFalse(options.roundsPossible(ON_AGENTS));
        assertEquals("x.yaml: driver.jmeter.agents: JMeter's agents run no interleaved rounds (each would keep its own); use --design sequential",
                assertThrows(UsageException.class, () -> options.driver(ON_AGENTS, true, false)).getMessage());
    }

    @Test
    void anotherDriverOnTheCommandLineTakesTheFilesAgentsAway() {
        DriverOptions options = new DriverOptions(processes);
        options.driver = "hyperfoil";
        assertTrue(options.roundsPossible(ON_AGENTS));
        assertEquals("hyperfoil", options.driver(ON_AGENTS, true, false).name());
    }

    @Test
    void agentsOnTheCommandLineReplaceTheFilesAndNameTheFlag() {
        DriverOptions options = new DriverOptions(processes);
        options.agents = "3";
        assertEquals("--agents: JMeter's agents run no interleaved rounds (each would keep its own); use --design sequential",
                assertThrows(UsageException.class, () -> options.driver(ON_AGENTS, true, false)).getMessage());
    }

    @Test
    void withoutFlagsOrFileItIsHyperfoil() {
        DriverOptions options = new DriverOptions(processes);
        assertTrue(options.roundsPossible(DriverChoice.NONE));
        assertEquals("hyperfoil", options.driver(DriverChoice.NONE, true, true).name());
    }
}
