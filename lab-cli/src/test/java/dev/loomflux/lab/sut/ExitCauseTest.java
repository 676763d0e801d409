package dev.loomflux.lab.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The JVM's and Spring's own words for each way a target dies, and the headline each gets. */
class ExitCauseTest {
    private static final List<String> STARTED = List.of(
            "2026-11-25T09:27:01.120Z  INFO 1 --- [main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat started on port 40123 (http) with context path '/'",
            "2026-11-25T09:27:01.140Z  INFO 1 --- [main] dev.loomflux.mvc.MvcApplication          : Started MvcApplication in 6.1 seconds");

    private static Optional<String> of(String... last) {
        List<String> log = new java.util.ArrayList<>(STARTED);
        log.addAll(List.of(last));
        return ExitCause.of(log, Optional.empty(), "512m");
    }

    @Test
    void eachOutOfMemoryErrorNamesWhatRanOutAndTheLimit() {
        assertEquals(Optional.of("out of heap (heap 512m): java.lang.OutOfMemoryError: Java heap space"),
                of("Terminating due to java.lang.OutOfMemoryError: Java heap space"));
        assertEquals(Optional.of("out of metaspace: java.lang.OutOfMemoryError: Metaspace"), of("Terminating due to java.lang.OutOfMemoryError: Metaspace"));
        assertEquals(Optional.of("out of direct buffer memory (limit: the heap, 512m, unless -XX:MaxDirectMemorySize): java.lang.OutOfMemoryError: Direct buffer memory"),
                of("Exception in thread \"reactor-http-epoll-1\" java.lang.OutOfMemoryError: Direct buffer memory", "\tat java.base/java.nio.Bits.reserveMemory(Bits.java:175)"));
        assertEquals(Optional.of("could not create a thread (memory or the limit on processes): java.lang.OutOfMemoryError: unable to create native thread: "
                        + "possibly out of memory or process/resource limits reached"),
                of("[0.912s][warning][os,thread] Failed to start thread \"Unknown thread\" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k",
                        "Terminating due to java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached"));
    }

    @Test
    void theKernelsOomKillUnderTheMemoryLimitComesFirst() {
        assertEquals(Optional.of("killed by its memory limit of 1024 MB (the kernel's OOM killer)"),
                ExitCause.of(STARTED, Optional.of("killed by its memory limit of 1024 MB"), "512m"));
    }

    @Test
    void aBindFailureAndACrashAreNamed() {
        assertEquals(Optional.of("could not bind its port: Web server failed to start. Port 40123 was already in use."),
                of("***************************", "APPLICATION FAILED TO START", "***************************", "", "Description:", "",
                        "Web server failed to start. Port 40123 was already in use.", "", "Action:", "",
                        "Identify and stop the process that's listening on port 40123 or configure this application to listen on another port."));
        assertEquals(Optional.of("the JVM crashed: SIGSEGV (0xb) at pc=0x00007f3c2d1b2e10, pid=4242, tid=4250; see /work/hs_err_pid4242.log"),
                of("#", "# A fatal error has been detected by the Java Runtime Environment:", "#", "#  SIGSEGV (0xb) at pc=0x00007f3c2d1b2e10, pid=4242, tid=4250",
                        "#", "# JRE version: OpenJDK Runtime Environment Temurin-25+36 (25.0+36) (build 25+36-LTS)",
                        "# An error report file with more information is saved as:", "# /work/hs_err_pid4242.log"));
    }

    @Test
    void aLogThatSaysNothingGivesNoCause() {
        assertEquals(Optional.empty(), of());
        assertEquals(Optional.empty(), ExitCause.of(List.of(), Optional.empty(), "512m"));
    }
}
