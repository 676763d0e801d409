package dev.loomflux.lab.cpuprofile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The workload of the profiler-cost check ({@link SamplerCost}), run as its own JVM: shaped like a request-serving JVM, as many
 * threads as a default run's users, each doing small operations that go some frames deep (a sampler walks every stack it
 * samples) and allocate (a string, a map), and timed by itself, so that the JVM's start and exit do not count.
 *
 * <p>{@code java <flags> -cp <lab jar> dev.loomflux.lab.cpuprofile.CostProbe <threads> <warm ms> <measured ms>}: the threads run
 * {@code warm ms} first (the JIT compiles the operation), then count the operations they finish in the next {@code measured ms};
 * it prints one line, {@value #OUTPUT}{@code <operations per second>}, and exits.
 */
public final class CostProbe {
    /** What its one line of output starts with. */
    static final String OUTPUT = "loomflux-probe ops_per_s=";
    /** Frames below the thread's run method, about those of a request under a servlet container's filters and controller. */
    private static final int DEPTH = 40;
    private static final int WARM = 0;
    private static final int MEASURED = 1;
    private static final int DONE = 2;

    private final LongAdder counted = new LongAdder();
    private final LongAdder sinks = new LongAdder();
    private volatile int phase = WARM;

    private CostProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        long warmMs = Long.parseLong(args[1]);
        long measuredMs = Long.parseLong(args[2]);
        System.out.println(OUTPUT + Math.round(new CostProbe().run(threads, warmMs, measuredMs)));
    }

    /** @return the operations all threads finished per second of the measured window */
    private double run(int threads, long warmMs, long measuredMs) throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::work, "probe-" + i);
            t.setDaemon(true); // a worker that misses the end must not hold the JVM
            workers.add(t);
            t.start();
        }
        Thread.sleep(warmMs);
        phase = MEASURED;
        long from = System.nanoTime();
        Thread.sleep(measuredMs);
        phase = DONE;
        long to = System.nanoTime();
        for (Thread t : workers) {
            t.join(10_000);
        }
        return counted.sum() / ((to - from) / 1e9);
    }

    private void work() {
        long done = 0;
        long sink = 0;
        for (long i = 0; phase != DONE; i++) {
            sink += operation(DEPTH, i);
            if (phase == MEASURED) {
                done++;
            }
        }
        counted.add(done);
        sinks.add(sink); // kept, so that the JIT cannot drop the work
    }

    private static long operation(int depth, long seed) {
        if (depth > 0) {
            return operation(depth - 1, seed * 31 + depth) + 1;
        }
        String key = new StringBuilder(48).append("request-").append(seed).append('/').append(seed >>> 7).toString();
        Map<String, Long> fields = new HashMap<>();
        fields.put(key, seed);
        fields.put("id", seed >>> 3);
        long h = 0;
        for (int i = 0; i < key.length(); i++) {
            h = h * 31 + key.charAt(i);
        }
        return h + fields.size();
    }
}
