package dev.loomflux.lab.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenFilesTest {
    @TempDir
    Path dir;

    @Test
    void theDefaultFitsAndTenThousandUsersOnSixJvmsDoNotUnderTwentyThousand() {
        assertNull(OpenFiles.problem(50, 6, 1024));
        assertNull(OpenFiles.problem(10_000, 1, 20_000));
        String wrong = OpenFiles.problem(10_000, 6, 20_000);
        assertEquals("--users 10000: the load driver holds 60,000 connections at once (10,000 users x 6 target JVMs, whose connections stay open "
                + "across the rounds) and needs about 60,300 open files, but this process may open 20,000 (ulimit -n); raise the limit in the shell "
                + "that runs the lab (ulimit -n 60300; ./lab raises it to the hard limit itself) or use fewer --users, --targets or --sets", wrong);
    }

    @Test
    void oneJvmAtATimeNeedsItsUsersAndTheLabsOwnFiles() {
        assertNull(OpenFiles.problem(19_700, 1, 20_000));
        assertTrue(OpenFiles.problem(19_701, 1, 20_000).contains("(19,701 users x 1 target JVM) and needs about 20,001 open files"));
    }

    @Test
    void readsTheSoftLimitFromProcLimits() throws IOException {
        Path limits = dir.resolve("limits");
        Files.writeString(limits, "Limit                     Soft Limit           Hard Limit           Units     \n"
                + "Max processes             95514                95514                processes \n"
                + "Max open files            20000                1048576              files     \n");
        assertEquals(OptionalLong.of(20_000), OpenFiles.limit(limits));
        Files.writeString(limits, "Max open files            unlimited            unlimited            files     \n");
        assertEquals(OptionalLong.empty(), OpenFiles.limit(limits));
        assertEquals(OptionalLong.empty(), OpenFiles.limit(dir.resolve("missing")));
    }
}
