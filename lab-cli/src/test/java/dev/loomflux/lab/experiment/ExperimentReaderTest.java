package dev.loomflux.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.limits.ResourceLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentReaderTest {
    @TempDir
    Path dir;

    @Test
    void theCommentedExampleReadsAsDocumented() {
        Experiment e = ExperimentReader.read(Path.of(System.getProperty("loomflux.home"), "experiments/example.yaml"));
        assertEquals("example", e.name());
        assertEquals(List.of("mvc", "mvc-vt", "webflux", "mvc-10"), e.targets().stream().map(t -> t.name()).toList());
        assertEquals(Map.of("server.tomcat.threads.max", "10"), e.targets().get(3).properties());
        assertEquals(List.of("/plaintext", "/gateway?delay=20"), e.scenarios().stream().map(Scenario::path).toList());
        assertEquals(new Profile.Fixed(50, Duration.ofSeconds(10)), e.profile());
        assertEquals(Duration.ofSeconds(180), e.warmup());
    }

    @Test
    void everyProfileKindParses() throws IOException {
        assertEquals(new Profile.Stages(List.of(new Profile.Stage(Duration.ofSeconds(15), 50), new Profile.Stage(Duration.ofSeconds(30), 0)))
                , read("profile: {stages: [{duration: 15s, users: 50}, {duration: 30s, users: 0}]}").profile());
        assertEquals(new Profile.Loops(200, 300), read("profile: {loops: {users: 200, requests: 300}}").profile());
        assertEquals(new Profile.Burst(10000, 100), read("profile: {burst: {users: 10000, requests: 100}}").profile());
        assertEquals(new Profile.Rate(2000, Duration.ofMillis(1500), 500), read("profile: {rate: {rps: 2000, duration: 1500ms, max-users: 500}}").profile());
        assertEquals(new Profile.Rate(50, Duration.ofMinutes(1), 100), read("profile: {rate: {rps: 50, duration: 1m}}").profile());
        // The defaults of the flags (--connections 50, --duration 15s, --requests 100): one reader for both.
        assertEquals(new Profile.Fixed(50, Duration.ofSeconds(15)), read("profile: {fixed: {}}").profile());
        assertEquals(new Profile.Loops(50, 100), read("profile: {loops: {}}").profile());
        assertEquals(new Profile.Rate(20000, Duration.ofSeconds(15), 20000), read("profile: {rate: {rps: 20000}}").profile());
    }

    @Test
    void scenarioParametersTakeDefaultsAndLimits() throws IOException {
        Experiment e = read("profile: {fixed: {users: 1, duration: 1s}}", "[chain: {depth: 5}, items, cpu: {work: 7}]");
        assertEquals(List.of("/chain?delay=20&depth=5", "/items?page=0&size=20", "/cpu?work=7"), e.scenarios().stream().map(Scenario::path).toList());
    }

    @Test
    void limitsAreForEveryTargetAndNamedOnError() throws IOException {
        assertEquals(new ResourceLimits(0.5, 1L << 30), read("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpus: 0.5, memory: 1g}").limits());
        assertEquals(new ResourceLimits(0, 768L << 20), read("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {memory: 768m}").limits());
        assertEquals(ResourceLimits.NONE, read("profile: {fixed: {users: 1, duration: 1s}}").limits());
        assertEquals(new ResourceLimits(0, 1L << 30), ExperimentReader.read(Path.of(System.getProperty("loomflux.home"),
                "experiments/seed-003-gateway-latency.yaml")).limits(), "seed 003's equal 1 GB containers");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpus: 0}", "x.yaml: limits.cpus: expected a number above 0 and at most 1024, e.g. 0.5, got '0'");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpus: half}", "x.yaml: limits.cpus: expected a number above 0");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {memory: 8m}", "x.yaml: limits.memory: expected at least 16m, got '8m'");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {memory: lots}", "x.yaml: limits.memory lots: expected a size such as 512m or 1g");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpu: 1}", "x.yaml: limits.cpu: unknown key (allowed: ");
    }

    @Test
    void errorsNameFileFieldAndWhatIsAllowed() throws IOException {
        assertError("profile: {fixed: {users: 0, duration: 10s}}", "x.yaml: profile.fixed.users: 0 is out of range 1..100000");
        assertError("profile: {fixed: {users: ten, duration: 10s}}", "x.yaml: profile.fixed.users: expected an integer in 1..100000");
        assertError("profile: {fixed: {users: 5, duration: soon}}", "x.yaml: profile.fixed.duration: expected a duration such as 500ms, 30s, 2m or 1h, got 'soon'");
        assertError("profile: {fixed: {users: 5, durtion: 1s}}", "x.yaml: profile.fixed.durtion: unknown key (allowed: ");
        assertError("profile: {steady: {users: 5}}", "x.yaml: profile.steady: unknown profile (allowed: stages, fixed, loops, burst, rate)");
        assertError("profile: {rate: {duration: 1s}}", "x.yaml: profile.rate.rps: required by the rate profile");
        assertErrorScenarios("[gateway: {delay: 99999}]", "x.yaml: scenarios[0].gateway: delay 99999 is out of range 0..5000");
        assertErrorScenarios("[gateway: {depth: 2}]", "x.yaml: scenarios[0].gateway: 'depth' does not apply to gateway (it takes delay)");
        assertErrorScenarios("[soap]", "x.yaml: scenarios[0]: unknown scenario 'soap' (allowed: plaintext, json, gateway, chain, items, cpu, path:/ANY)");
        Files.writeString(dir.resolve("x.yaml"), "targets: [mvc\nscenarios: [json]\n");
        assertEquals(0, assertThrows(UsageException.class, () -> ExperimentReader.read(dir.resolve("x.yaml"))).getMessage()
                .indexOf(dir.resolve("x.yaml") + ": not valid YAML at line"));
    }

    private void assertError(String profileYaml, String expected) throws IOException {
        UsageException e = assertThrows(UsageException.class, () -> read(profileYaml));
        assertEquals(0, e.getMessage().indexOf(dir.resolve(expected.substring(0, expected.indexOf(':'))) + expected.substring(expected.indexOf(':'))), e.getMessage());
    }

    private void assertErrorScenarios(String scenarios, String expected) throws IOException {
        UsageException e = assertThrows(UsageException.class, () -> read("profile: {fixed: {users: 1, duration: 1s}}", scenarios));
        assertEquals(0, e.getMessage().indexOf(dir.resolve("x.yaml") + expected.substring(expected.indexOf(':'))), e.getMessage());
    }

    private Experiment read(String profileYaml) throws IOException {
        return read(profileYaml, "[plaintext]");
    }

    private Experiment read(String profileYaml, String scenarios) throws IOException {
        Path f = dir.resolve("x.yaml");
        Files.writeString(f, "targets: [mvc]\nscenarios: " + scenarios + "\n" + profileYaml + "\n");
        return ExperimentReader.read(f);
    }
}
