package dev.loomflux.lab.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** This JVM's own threads as the kernel counts them: a thread's CPU time in its role, read twice, is what the JVM says it used. */
class ThreadTimesTest {
    @Test
    void rolesNameThreadsWithoutTheirNumbers() {
        assertEquals("http-nio-N-e", ThreadTimes.role("http-nio-8081-e"));
        assertEquals("http-nio-N.N.", ThreadTimes.role("http-nio-127.0."));
        assertEquals("ForkJoinPool-N-", ThreadTimes.role("ForkJoinPool-1-"));
        assertEquals("GC Thread#N", ThreadTimes.role("GC Thread#3"));
        assertEquals("C2 CompilerThre", ThreadTimes.role("C2 CompilerThre"));
        assertEquals("reactor-http-ep", ThreadTimes.role("reactor-http-ep"));
    }

    @Test
    void aThreadBornBetweenTwoReadingsCountsItsCpuTimeInItsRole() throws Exception {
        long pid = ProcessHandle.current().pid();
        ThreadTimes before = ThreadTimes.read(pid);
        assertTrue(before.threads().size() > 3, "this JVM's threads: " + before.threads().size());
        AtomicLong used = new AtomicLong();
        Thread[] live = new Thread[1];
        Object gate = new Object();
        live[0] = new Thread(() -> {
            var mx = ManagementFactory.getThreadMXBean();
            // 200 ms of this thread's own CPU, however long the machine takes to give it that; then it waits, using none.
            while (mx.getCurrentThreadCpuTime() < 200_000_000L) {
                Thread.onSpinWait();
            }
            used.set(mx.getCurrentThreadCpuTime());
            synchronized (gate) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "spinner-4");
        ThreadTimes start = ThreadTimes.read(pid);
        live[0].start();
        while (used.get() < 200_000_000L) {
            Thread.sleep(10);
        }
        Map<String, ThreadTimes.RoleTimes> roles = ThreadTimes.read(pid).since(start);
        synchronized (gate) {
            gate.notifyAll();
        }
        live[0].join();
        ThreadTimes.RoleTimes spinner = roles.get("spinner-N");
        assertEquals(1, spinner.threads(), roles.toString());
        assertEquals(used.get() / 1e6, spinner.cpuNs() / 1e6, 15, "ms on a CPU, the kernel's against the JVM's");
        assertTrue(spinner.slices() >= 1 && spinner.waitNs() >= 0, spinner.toString());
    }
}
