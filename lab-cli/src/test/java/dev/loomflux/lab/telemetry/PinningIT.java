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
import java.util.List;
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
            // The whole stack, leaf first: the JDK's sleep and park on the carrier, the initializer that slept, the handler
            // whose call ran it, then Spring's and Tomcat's frames below it.
            List<String> stack = top.stack();
            int init = indexOf(stack, "dev.loomflux.targets.mvc.SlowClassInit.<clinit>");
            int handler = indexOf(stack, "dev.loomflux.targets.mvc.MvcController.pin");
            assertTrue(stack.get(0).startsWith("java.lang.VirtualThread."), stack.toString());
            assertTrue(init > 0 && handler == init + 1, stack.toString());
            assertTrue(stack.size() > handler + 10, stack.toString());
            assertEquals(0L, jvm.submitFailed(), jvm.toString());
        }
    }

    private static int indexOf(List<String> stack, String method) {
        for (int i = 0; i < stack.size(); i++) {
            if (stack.get(i).startsWith(method + " ")) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aMissingRecordingDegradesToANoteInsteadOfFailing() {
        JvmFacts jvm = JvmSummary.of(dir.resolve("absent.jfr"), Instant.now(), Instant.now(), false, null);
        assertFalse(jvm.available());
        assertTrue(jvm.note().startsWith("cannot read absent.jfr"), jvm.toString());
    }
}
