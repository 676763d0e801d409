package dev.loomflux.lab.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.result.JvmFacts;
import dev.loomflux.lab.jdk.JdkLocator;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.sut.Http;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.Placement;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.Targets;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pinning is reported when it really happens: blocking in a class initializer on a virtual thread. */
class PinningIT {
    @TempDir
    Path dir;

    @Test
    void blockingInAClassInitializerOnMvcVtIsReportedWithItsFrame() throws Exception {
        LaunchSettings settings = new LaunchSettings(JdkLocator.system().locate(null), "127.0.0.1", LaunchSettings.DEFAULT_HEAP);
        try (LabProcesses processes = new LabProcesses();
             RunningTarget t = RunningTarget.start(processes, Home.detect(), new Targets().all().get("mvc-vt"), settings, Placement.ANYWHERE,
                     URI.create("http://127.0.0.1:9"), null, dir)) {
            Instant from = Instant.now();
            assertEquals(200, Http.get(t.base().resolve("/diagnostics/pin"), Duration.ofSeconds(10)).status());
            Instant to = Instant.now();
            Path jfr = dir.resolve("pin.jfr");
            assertNull(JfrDump.dump(settings.jdk(), t.process().pid(), jfr));
            JvmFacts jvm = JvmSummary.of(jfr, from, to, true, null);
            assertTrue(jvm.available(), jvm.toString());
            assertEquals(1L, jvm.pinnedEvents(), jvm.toString());
            JvmFacts.PinnedFrame top = jvm.pinnedTopFrames().get(0);
            assertTrue(top.frame().contains("SlowClassInit.<clinit>"), jvm.toString());
            // The whole stack, leaf first: the initializer, then the handler whose call ran it, down to the carrier's start.
            assertTrue(top.stack().get(0).contains("SlowClassInit"), top.stack().toString());
            assertTrue(top.stack().stream().anyMatch(f -> f.startsWith("dev.loomflux.targets.mvc.MvcController.")), top.stack().toString());
            assertTrue(top.stack().size() > 10, top.stack().toString());
            assertEquals(0L, jvm.submitFailed(), jvm.toString());
        }
    }

    @Test
    void aMissingRecordingDegradesToANoteInsteadOfFailing() {
        JvmFacts jvm = JvmSummary.of(dir.resolve("absent.jfr"), Instant.now(), Instant.now(), false, null);
        assertFalse(jvm.available());
        assertTrue(jvm.note().startsWith("cannot read absent.jfr"), jvm.toString());
    }
}
