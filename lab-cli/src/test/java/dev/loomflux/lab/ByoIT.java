package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.JvmFacts;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
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
        RunRecord root = run.record();
        ExperimentDescription.TargetDescription target = root.experiment().targets().get(0);
        assertEquals("{java}", target.command().get(0), target.toString());
        Result r = root.results().get(0);
        assertEquals("path-json", r.scenario());
        assertEquals("ok", r.outcome().status(), r.toString());
        assertTrue(r.load().requests() > 100, String.valueOf(r.load().requests()));
        assertEquals(0, r.load().errors().total());
        // JAVA_TOOL_OPTIONS carried the lab's JFR flag into the user's JVM, and the argv switched on virtual threads.
        JvmFacts jvm = r.telemetry().jvm();
        assertTrue(jvm.available(), String.valueOf(jvm));
        assertTrue(jvm.virtualThreads(), String.valueOf(jvm));
        assertEquals(512.0, jvm.heapMaxMb(), String.valueOf(jvm));
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
        Result r = run.record().results().get(0);
        long responses = r.load().responses();
        long reconnections = r.load().reconnections();
        String seen = responses + " responses, " + reconnections + " reconnections, errors " + r.load().errors();
        assertEquals("ok", r.outcome().status(), r.toString());
        assertEquals(0, r.load().errors().total(), seen);
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
