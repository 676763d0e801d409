package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverLogTest {
    private static final Logger HYPERFOIL = LogManager.getLogger("io.hyperfoil.http.steps.SendHttpRequestStep");

    @Test
    void aFloodGoesToTheFileRateLimitedAndTheConsoleComesBack(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("driver.log");
        try (DriverLog log = new DriverLog(file)) {
            assertFalse(rootAppenders().contains("stderr"), "console detached during the run: " + rootAppenders());
            for (int i = 0; i < 10_000; i++) {
                HYPERFOIL.error("#{} Stopping the session as we cannot obtain connection.", i);
            }
        }
        List<String> lines = Files.readAllLines(file);
        // A burst of 100, then 10 per second: a 10,000-line flood within a second or two leaves at most ~120.
        assertTrue(lines.size() >= 100 && lines.size() <= 150, lines.size() + " lines");
        assertTrue(lines.get(0).contains("ERROR [SendHttpRequestStep] #0 Stopping the session"), lines.get(0));
        assertEquals(List.of("stderr"), rootAppenders());
    }

    private static List<String> rootAppenders() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        return List.copyOf(context.getConfiguration().getRootLogger().getAppenders().keySet());
    }
}
