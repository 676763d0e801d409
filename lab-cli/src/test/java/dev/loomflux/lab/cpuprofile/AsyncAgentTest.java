package dev.loomflux.lab.cpuprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.jdk.JdkLocator;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The library from the lab's class path, extracted and loaded into the targets' JDK; one line when it cannot load. */
class AsyncAgentTest {
    private static final Jdk JDK = JdkLocator.system().locate(null);

    @TempDir
    Path dir;

    @Test
    void theLibraryOnTheClassPathLoadsIntoTheTargetsJdk() {
        AsyncAgent agent = AsyncAgent.load(Profiler.ASYNC, JDK);
        assertTrue(Files.isRegularFile(agent.library()), agent.toString());
        assertTrue(agent.library().startsWith(Path.of(System.getProperty("java.io.tmpdir"))), "extracted to a cache, never the repository: " + agent);
        assertEquals(agent.library(), AsyncAgent.load(Profiler.ASYNC_WALL, JDK).library(), "one copy per version and platform");
        assertEquals("-agentpath:" + agent.library() + "=start,event=cpu,interval=20ms,jfr,file=" + dir.toAbsolutePath().resolve("async-profiler.%p.jfr"),
                agent.jvmFlag(dir));
    }

    @Test
    void aLibraryTheJvmCannotLoadIsRefusedInOneLine() throws Exception {
        Path notALibrary = Files.writeString(dir.resolve("libasyncProfiler.so"), "not an ELF file");
        UsageException e = assertThrows(UsageException.class, () -> new AsyncAgent(Profiler.ASYNC, notALibrary, "4.2").check(JDK, "--cpu-profiler async"));
        assertTrue(e.getMessage().startsWith("--cpu-profiler async: " + JDK.home() + " cannot load " + notALibrary + ": java -agentpath failed (exit "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
