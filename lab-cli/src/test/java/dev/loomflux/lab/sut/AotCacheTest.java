package dev.loomflux.lab.sut;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.jdk.Jdk;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The cache is made in one step from JDK 25 on (RunIT runs targets from it end to end). */
class AotCacheTest {
    @Test
    void aJdkBefore25IsOneLineNamingTheFlagAndTheJdk() {
        UsageException e = assertThrows(UsageException.class, () -> AotCache.requireJdk(new Jdk(Path.of("/opt/jdk-21"), 21, "21.0.5")));
        assertEquals("--aot-cache: needs JDK 25 or newer to run the targets; /opt/jdk-21 is 21.0.5 (choose one with --java)", e.getMessage());
        assertDoesNotThrow(() -> AotCache.requireJdk(new Jdk(Path.of("/opt/jdk-25"), 25, "25.0.3")));
    }
}
