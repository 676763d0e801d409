package dev.loomflux.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        assertEquals("one load driver: JMeter's agents would each keep their own rounds", options.roundsObstacle(ON_AGENTS, false));
        assertEquals("x.yaml: driver.jmeter.agents: JMeter's agents run no interleaved rounds (each would keep its own); use --design sequential",
                assertThrows(UsageException.class, () -> options.driver(ON_AGENTS, true, false)).getMessage());
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
        options.agents = "3";
        assertEquals("--agents: JMeter's agents run no interleaved rounds (each would keep its own); use --design sequential",
                assertThrows(UsageException.class, () -> options.driver(ON_AGENTS, true, false)).getMessage());
    }

    @Test
    void withoutFlagsOrFileItIsHyperfoil() {
        DriverOptions options = new DriverOptions(processes);
        assertNull(options.roundsObstacle(DriverChoice.NONE, true));
        assertEquals("hyperfoil", options.driver(DriverChoice.NONE, true, true).name());
    }
}
