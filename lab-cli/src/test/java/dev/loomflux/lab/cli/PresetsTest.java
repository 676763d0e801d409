package dev.loomflux.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Presets by name: a whole name, else a unique prefix. */
class PresetsTest {
    private static String resolve(String name) {
        return Presets.resolve(Home.detect(), Path.of(name)).getFileName().toString();
    }

    @Test
    void aWholeNameWinsOverTheLongerNamesItBegins() {
        assertEquals("peer-10k.yaml", resolve("peer-10k"));
        assertEquals("peer-10k-depth-1.yaml", resolve("peer-10k-d"));
        assertEquals("seed-003-gateway-latency.yaml", resolve("seed-003"));
        UsageException e = assertThrows(UsageException.class, () -> resolve("seed-00"));
        assertTrue(e.getMessage().startsWith("seed-00: ambiguous, matches seed-000-k6-stages.yaml"), e.getMessage());
    }
}
