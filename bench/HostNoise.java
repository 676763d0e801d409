import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How much this machine's own speed moves while nothing of ours runs: once a second it times a
 * pointer chase over 32 MB (memory latency), a walk over 256 KB (L2) and a dependent integer loop,
 * and prints the medians of every 15 s and their range. Run by bench/host-noise.sh (docs/reproducibility.md).
 */
public class HostNoise {
    public static void main(String[] args) throws InterruptedException {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 120;
        int[] memory = cycle(8 << 20, 1);
        int[] l2 = cycle(64 << 10, 2);
        List<double[]> window = new ArrayList<>();
        List<double[]> medians = new ArrayList<>();
        long sink = 0;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        System.out.println("15 s medians: memory ns/load, L2 ns/load, integer ms");
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            int p = 0;
            for (int i = 0; i < 1_000_000; i++) {
                p = memory[p];
            }
            long t1 = System.nanoTime();
            int q = 0;
            for (int i = 0; i < 10_000_000; i++) {
                q = l2[q];
            }
            long t2 = System.nanoTime();
            long x = t2;
            for (int i = 0; i < 10_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L; // dependent: the loop cannot be vectorized away
            }
            long t3 = System.nanoTime();
            sink += p + q + x;
            window.add(new double[] {(t1 - t0) / 1e6, (t2 - t1) / 1e7, (t3 - t2) / 1e6});
            if (window.size() == 15) {
                double[] m = {median(window, 0), median(window, 1), median(window, 2)};
                medians.add(m);
                System.out.printf("%8.1f %8.2f %8.2f%n", m[0], m[1], m[2]);
                window.clear();
            }
            Thread.sleep(1000);
        }
        if (medians.size() > 1) {
            System.out.printf("range (max / min of the medians): memory %.2f, L2 %.2f, integer %.2f%n",
                    spread(medians, 0), spread(medians, 1), spread(medians, 2));
        }
        System.out.println(sink == 42 ? "" : "done");
    }

    /** A random single cycle through n slots, so that every load depends on the one before. */
    private static int[] cycle(int n, long seed) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[order[i]] = order[(i + 1) % n];
        }
        return next;
    }

    private static double median(List<double[]> rows, int column) {
        List<Double> v = new ArrayList<>();
        rows.forEach(r -> v.add(r[column]));
        Collections.sort(v);
        return v.get(v.size() / 2);
    }

    private static double spread(List<double[]> rows, int column) {
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double[] r : rows) {
            min = Math.min(min, r[column]);
            max = Math.max(max, r[column]);
        }
        return max / min;
    }
}
