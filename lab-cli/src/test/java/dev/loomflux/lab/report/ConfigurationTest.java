package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.driver.FakeDriver;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.result.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The configuration's load driver row is the driver's own words, the registry's or a driver added to it. */
class ConfigurationTest {
    private static RunRecord ranOn(String driver, String version) throws IOException {
        ObjectNode root = (ObjectNode) new ObjectMapper().readTree(Files.readString(ReportMarkdownTest.PAIRED.resolve("results.json")));
        ((ObjectNode) root.get("experiment")).put("driver", driver);
        ((ObjectNode) root.get("environment").get("versions")).put(driver, version);
        return Json.read(root.toString(), RunRecord.class);
    }

    private static String driverRow(RunRecord run, Table table) {
        return table.rows().stream().filter(r -> r.get(0).equals("load driver")).map(r -> r.get(1)).findFirst().orElseThrow();
    }

    @Test
    void theRegistrysDriversDescribeThemselves() throws IOException {
        RunRecord hyperfoil = ranOn("hyperfoil", "0.25.2");
        assertEquals("Hyperfoil 0.25.2, embedded in the lab", driverRow(hyperfoil, Configuration.of(hyperfoil)));
        RunRecord jmeter = ranOn("jmeter", "5.6.3");
        assertEquals("Apache JMeter 5.6.3, non-GUI, one local process (latency in whole ms; a thread and connection per user, per arrival for a rate)",
                driverRow(jmeter, Configuration.of(jmeter, Drivers.ALL)));
    }

    @Test
    void aDriverAddedToTheRegistryIsReportedInItsOwnWords() throws IOException {
        RunRecord fake = ranOn("fake", "9.9");
        assertEquals("Fake 9.9, a test's own", driverRow(fake, Configuration.of(fake, FakeDriver.CATALOG)));
        assertEquals("fake 9.9", driverRow(fake, Configuration.of(fake, Drivers.ALL)), "a driver the registry does not know: its name and version");
        assertEquals(List.of("setting", "value"), Configuration.of(fake, FakeDriver.CATALOG).header());
    }
}
