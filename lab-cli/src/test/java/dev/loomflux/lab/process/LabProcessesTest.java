package dev.loomflux.lab.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What one lab owns: closed newest first when it ends, and what it starts listed in the record of the run it is in. */
class LabProcessesTest {
    @TempDir
    Path dir;

    @Test
    void whatIsStillOpenIsClosedNewestFirstWhenTheLabEndsAndWhatWasClosedBeforeIsNot() {
        List<String> closed = new ArrayList<>();
        AutoCloseable stub = () -> closed.add("stub");
        AutoCloseable target = () -> closed.add("target");
        AutoCloseable cgroup = () -> closed.add("cgroup");
        try (LabProcesses lab = new LabProcesses()) {
            lab.register(cgroup);
            lab.register(stub);
            lab.register(target);
            lab.unregister(stub);
            assertFalse(lab.stopping(), "only a signal stops the lab");
        }
        assertEquals(List.of("target", "cgroup"), closed);
    }

    @Test
    void theRunsRecordListsWhatItsLabStartedWhileItWasOpenAndTheLabsEndStopsThemAll() throws IOException {
        ManagedProcess before;
        ManagedProcess during;
        ManagedProcess after;
        try (LabProcesses lab = new LabProcesses()) {
            before = sleep(lab, "before");
            try (RunProcesses run = lab.openRun(dir)) {
                during = sleep(lab, "during the run");
            }
            after = sleep(lab, "after");
            assertTrue(before.isAlive() && during.isAlive() && after.isAlive());
        }
        List<String> record = Files.readAllLines(dir.resolve(RunProcesses.FILE));
        assertEquals(3, record.size(), record.toString());
        assertTrue(record.get(0).startsWith("lab " + ProcessHandle.current().pid() + " "), record.toString());
        assertTrue(record.get(1).matches(during.pid() + " \\d+ during_the_run"), record.toString());
        assertEquals("ended", record.get(2));
        assertFalse(before.isAlive() || during.isAlive() || after.isAlive(), "a child outlived its lab");
    }

    @Test
    void aProcessReadsBackOnlyItsOwnLinesOfALogAnEarlierOneWroteTo() throws Exception {
        Path log = dir.resolve("t.log");
        try (LabProcesses lab = new LabProcesses()) {
            ManagedProcess first = ManagedProcess.start(lab, "t", List.of("sh", "-c", "echo OutOfMemoryError; echo first"), log);
            first.onExit().get();
            ManagedProcess second = ManagedProcess.start(lab, "t", List.of("sh", "-c", "echo second"), log);
            second.onExit().get();
            assertEquals(List.of("OutOfMemoryError", "first", "second"), java.nio.file.Files.readAllLines(log), "one log, appended");
            assertEquals(List.of("second"), second.logLines(), "the second JVM of a target did not die of the first one's error");
            assertEquals("second", second.logTail(10));
            assertEquals(List.of("OutOfMemoryError", "first"), first.logLines().subList(0, 2));
        }
    }

    private ManagedProcess sleep(LabProcesses lab, String name) {
        return ManagedProcess.start(lab, name, List.of("sleep", "60"), dir.resolve(name + ".log"));
    }
}
