package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bring your own app: the built mvc jar started as a plain command is loaded and measured like a built-in. */
class ByoIT {
    @TempDir
    Path dir;

    @Test
    void theMvcJarAsAPlainCommandRunsWithTheLabsJvmFlags() throws Exception {
        Path yaml = dir.resolve("own.yaml");
        Files.writeString(yaml, String.join("\n",
                "targets:",
                "  - name: own-mvc-vt",
                "    command: [\"{java}\", -jar, \"{home}/targets/mvc/target/loomflux-mvc.jar\", \"--server.address={host}\",",
                "              \"--server.port={port}\", \"--spring.threads.virtual.enabled=true\"]",
                "    ready: /plaintext",
                "scenarios: [{path: /json}]",
                "profile: {fixed: {users: 4, duration: 3s}}",
                "design: sequential",
                "warmup: 0s",
                "cooldown: 0s", ""));
        LabCli run = LabCli.of("run", yaml.toString(), "--no-pin"); // starts on both CPUs; pinning is RunIT's to check
        assertEquals(0, run.exitCode(), run.toString());
        JsonNode root = Results.tree(run.out());
        JsonNode target = root.path("experiment").path("targets").get(0);
        assertEquals("{java}", target.path("command").get(0).asText(), target.toString());
        JsonNode r = root.path("results").get(0);
        assertEquals("path-json", r.path("scenario").asText());
        assertEquals("ok", r.path("status").asText(), r.toString());
        assertTrue(r.path("requests").asLong() > 100, r.path("requests").toString());
        assertEquals(0, r.path("errors").path("total").asLong());
        // JAVA_TOOL_OPTIONS carried the lab's JFR flag into the user's JVM, and the argv switched on virtual threads.
        assertTrue(r.path("jvm").path("available").asBoolean(), r.path("jvm").toString());
        assertTrue(r.path("jvm").path("virtual_threads").asBoolean(), r.path("jvm").toString());
        assertEquals(512.0, r.path("jvm").path("heap_max_mb").asDouble(), r.path("jvm").toString());
    }

    /**
     * An app that keeps Tomcat's default of closing a kept-alive connection after 100 requests (as spring-petclinic-rest
     * did: docs/own-app.md) loses no request: each close is a reconnection, one per 100 requests on each of the 20
     * connections. A connection's count runs on from before the window (its warmup) and past it, so each of the 20 may
     * close once more or once less than its responses in the window make: responses / 100, give or take 20.
     */
    @Test
    void tomcatClosingEveryHundredthRequestsConnectionCountsReconnectionsNotErrors() throws Exception {
        LabCli run = LabCli.of("run", "--define", "close100=mvc,server.tomcat.max-keep-alive-requests=100", "--targets", "close100", "--scenario", "json",
                "--users", "20", "--design", "sequential", "--duration", "5s", "--warmup", "10s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        JsonNode r = Results.tree(run.out()).path("results").get(0);
        long responses = r.path("responses").asLong();
        long reconnections = r.path("reconnections").asLong();
        String seen = responses + " responses, " + reconnections + " reconnections, errors " + r.path("errors");
        assertEquals("ok", r.path("status").asText(), r.toString());
        assertEquals(0, r.path("errors").path("total").asLong(), seen);
        // Warm, the window holds thousands of responses, so that 20 is a small part of the count (a cold JVM's held 3,568).
        assertTrue(responses > 5_000, seen);
        assertEquals(responses / 100.0, reconnections, 20, seen);
    }

    @Test
    void aShellStringIsRefusedNamingTheField() throws Exception {
        Path yaml = dir.resolve("bad.yaml");
        Files.writeString(yaml, "targets: [{name: own, command: \"java -jar app.jar\", ready: /}]\nscenarios: [{path: /}]\nprofile: {fixed: {users: 1, duration: 1s}}\n");
        LabCli run = LabCli.of("run", yaml.toString());
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().contains("targets[0].command"), run.toString());
        assertEquals(1, run.err().strip().lines().count(), run.toString());
    }
}
