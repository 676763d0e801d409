package dev.loomflux.lab.run;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A process that exists and is no JVM, for the fakes' probes: they read its CPU, memory and threads at a block's edges, and no
 * JIT counters. The test's own JVM would do for the rest, but its JIT compiles while the test runs, and that time would count
 * as the fake target's: the rounds' JIT rule then withholds a verdict by chance.
 */
final class IdleProcess {
    static final long PID = start();

    private IdleProcess() {
    }

    private static long start() {
        try {
            Process p = new ProcessBuilder("sleep", "3600").start();
            Runtime.getRuntime().addShutdownHook(new Thread(p::destroy));
            return p.pid();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
