package dev.loomflux.lab.cpuprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real recording, made once: a thread sorts for a second with a shallow stack, then for a
 * second 100 frames deep (beyond JFR's 64, so those stacks are truncated), sampled every 10 ms,
 * while another thread sits blocked in accept().
 *
 * <p>The busy work is the JDK's sort, plain Java. SHA-256 was tried first: on a CPU with SHA
 * extensions, once C2 compiles the loop its time is in an intrinsic stub that JFR's sampler cannot
 * walk from, and the samples vanish (2 in the compiled second instead of 60 to 80).
 */
class JfrSamplesTest {
    private static final Duration HALF = Duration.ofSeconds(1);
    private static final int DEPTH = 100;
    private static final String BUSY = JfrSamplesTest.class.getName() + ".sort";
    private static final List<TimeWindow> ALL = List.of(new TimeWindow(Instant.MIN, Instant.MAX));

    @TempDir
    static Path dir;
    private static Path jfr;
    private static Instant start;
    private static Instant mid;
    private static Instant end;
    private static volatile int sink;

    @BeforeAll
    static void record() throws Exception {
        jfr = dir.resolve("busy.jfr");
        sort(Duration.ofMillis(300)); // compiled before the recording, so both halves run the same code
        try (Recording recording = new Recording(); ServerSocket idle = new ServerSocket(0)) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            Thread acceptor = new Thread(() -> {
                try {
                    idle.accept();
                } catch (Exception closed) {
                    // the recording is over
                }
            }, "acceptor");
            acceptor.start();
            Thread burner = new Thread(() -> {
                start = Instant.now();
                sort(HALF);
                mid = Instant.now();
                deep(DEPTH);
                end = Instant.now();
            }, "burner");
            burner.start();
            burner.join();
            recording.stop();
            recording.dump(jfr);
        }
    }

    /**
     * The busy method: sorts copies of 4096 random ints until this thread has had the given CPU time. CPU time, not
     * wall time: JFR samples a thread only while it runs, and on a busy machine a thread of 1 s of wall time ran for a
     * fraction of it (once 29 samples where ~200 were due).
     */
    private static void sort(Duration cpu) {
        int[] numbers = new Random(1).ints(4096).toArray();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + cpu.toNanos();
        while (threads.getCurrentThreadCpuTime() < until) {
            int[] copy = numbers.clone();
            Arrays.sort(copy);
            sink = copy[copy.length / 2];
        }
    }

    private static void deep(int frames) {
        if (frames == 0) {
            sort(HALF);
        } else {
            deep(frames - 1);
        }
    }

    @Test
    void theBusyMethodIsTheFirstFrameOutsideTheJdkOfMostSamples() throws Exception {
        Samples java = JfrSamples.read(jfr, ALL).java();
        long busy = java.stacks().counts().entrySet().stream().filter(e -> BUSY.equals(firstOutsideJdk(e.getKey()))).mapToLong(Map.Entry::getValue).sum();
        assertTrue(java.count() >= 30, java.count() + " samples in 2 s of CPU at 10 ms");
        assertTrue(busy > java.count() / 2, busy + " of " + java.count() + " samples in " + BUSY);
    }

    /**
     * async-profiler writes a native frame as a method of its library with the descriptor {@code ()L;}, a kernel frame with
     * {@code (Lk;)L;} and no class (as its recordings read through jdk.jfr.consumer show them): named by the symbol, the
     * kernel's with {@code _[k]}; a Java frame, a JNI method too, keeps its class.
     */
    @Test
    void nativeFramesAreNamedBySymbolAndKernelFramesMarked() {
        assertEquals("CompileBroker::compiler_thread_loop", JfrSamples.frameName("libjvm.so", "CompileBroker::compiler_thread_loop", "()L;"));
        assertEquals("start_thread", JfrSamples.frameName("libc.so.6", "start_thread", "()L;"));
        assertEquals("tcp_sendmsg_[k]", JfrSamples.frameName("", "tcp_sendmsg", "(Lk;)L;"));
        assertEquals("sun.nio.ch.SocketDispatcher.write0", JfrSamples.frameName("sun.nio.ch.SocketDispatcher", "write0", "(Ljava/io/FileDescriptor;JI)I"));
        assertEquals("dev.loomflux.targets.mvc.Api$$Lambda.apply",
                JfrSamples.frameName("dev.loomflux.targets.mvc.Api$$Lambda$567+0x00007f3c180de4f0.873827336", "apply", "(Ljava/lang/Object;)Ljava/lang/Object;"));
    }

    /**
     * A recording that ends in a chunk still being written, as async-profiler's file does after a dump: only the finished
     * chunks are copied, and they read as the whole recording did.
     */
    @Test
    void theChunkStillBeingWrittenIsLeftOut() throws Exception {
        Path growing = dir.resolve("growing.jfr");
        Files.copy(jfr, growing, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        long finished = Files.size(growing);
        // What async-profiler writes when it starts a chunk: its header, a size far past the end and no constant pool yet.
        java.nio.ByteBuffer next = java.nio.ByteBuffer.allocate(68).putInt(0x464c5200).putShort((short) 2).putShort((short) 0).putLong(1L << 30).putLong(0);
        Files.write(growing, next.array(), java.nio.file.StandardOpenOption.APPEND);
        try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(growing)) {
            assertEquals(finished, AsyncAgent.finishedChunks(in));
        }
        Path copy = dir.resolve("copy.jfr");
        Files.write(copy, Arrays.copyOf(Files.readAllBytes(growing), (int) finished));
        assertEquals(JfrSamples.read(jfr, ALL).java().stacks(), JfrSamples.read(copy, ALL).java().stacks());
    }

    @Test
    void aUserRuleNamingTheTestsPackagePutsMostSamplesInApp() throws Exception {
        CollapsedStacks stacks = JfrSamples.read(jfr, ALL).java().stacks();
        Path rules = Files.writeString(dir.resolve("mine.tsv"), "# the tests are my app\napp\tdev.loomflux.lab.cpuprofile\n");
        Map<Category, Double> mine = CategoryCounts.of(stacks, CategoryRules.withUserFile(rules)).shares();
        assertTrue(mine.get(Category.APP) > 0.5, mine.toString());
        Map<Category, Double> lab = CategoryCounts.of(stacks, CategoryRules.lab()).shares();
        assertTrue(lab.get(Category.OTHER) > 0.5, "the sort is the JDK's and the lab's table does not know the tests: " + lab);
    }

    @Test
    void aCollapsedFileReadsBackTheSameAndKeepsEachFramesSamples() throws Exception {
        CollapsedStacks stacks = JfrSamples.read(jfr, ALL).java().stacks();
        Path file = dir.resolve("busy.collapsed");
        stacks.write(file);
        CollapsedStacks back = CollapsedStacks.read(file);
        assertEquals(stacks, back);
        Path again = dir.resolve("again.collapsed");
        back.write(again);
        assertEquals(Files.readString(file), Files.readString(again));

        Map<String, Long> leaves = new HashMap<>();
        Map<String, Long> roots = new HashMap<>();
        back.counts().forEach((stack, n) -> {
            String[] frames = stack.split(";");
            leaves.merge(frames[frames.length - 1], n, Long::sum);
            roots.merge(frames[0], n, Long::sum);
        });
        Map<String, Long> jfrLeaves = new HashMap<>();
        Map<String, Long> jfrRoots = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
                RecordedStackTrace stack = e.getStackTrace();
                List<RecordedFrame> frames = stack.getFrames();
                jfrLeaves.merge(name(frames.get(0)), 1L, Long::sum);
                jfrRoots.merge(stack.isTruncated() ? JfrSamples.TRUNCATED : name(frames.get(frames.size() - 1)), 1L, Long::sum);
            }
        }
        assertEquals(jfrLeaves, leaves);
        assertEquals(jfrRoots, roots);
        assertTrue(roots.getOrDefault(JfrSamples.TRUNCATED, 0L) > 0, "the deep half's stacks are cut: " + roots);
    }

    @Test
    void aWindowKeepsTheSamplesItCoversAndNoWindowKeepsNone() throws Exception {
        Samples whole = JfrSamples.read(jfr, List.of(new TimeWindow(start, end))).java();
        Samples first = JfrSamples.read(jfr, List.of(new TimeWindow(start, mid))).java();
        Samples second = JfrSamples.read(jfr, List.of(new TimeWindow(mid, end))).java();
        double share = (double) first.count() / whole.count();
        assertTrue(share >= 0.25 && share <= 0.75, first.count() + " of " + whole.count() + " samples in the first half");
        assertEquals(whole.count(), first.count() + second.count(), "back-to-back windows share no sample");
        assertEquals(whole.count(), JfrSamples.read(jfr, List.of(new TimeWindow(start, end), new TimeWindow(start, mid))).java().count(),
                "a sample in two windows counts once");

        assertEquals(0, first.truncated(), "the first half's stacks are shallow");
        assertTrue(second.truncated() > second.count() / 2, second.truncated() + " of " + second.count() + " truncated in the deep half");
        long rootedAtTruncated = whole.stacks().counts().entrySet().stream()
                .filter(e -> e.getKey().startsWith(JfrSamples.TRUNCATED + ";")).mapToLong(Map.Entry::getValue).sum();
        assertEquals(whole.truncated(), rootedAtTruncated);

        JfrSamples none = JfrSamples.read(jfr, List.of());
        assertEquals(0, none.java().count() + none.inNative().count());
    }

    @Test
    void aThreadBlockedInANativeMethodIsInTheNativeSamplesOnly() throws Exception {
        JfrSamples samples = JfrSamples.read(jfr, ALL);
        long accepting = leafCount(samples.inNative().stacks(), "sun.nio.ch.Net.accept");
        assertTrue(accepting >= 10, accepting + " of " + samples.inNative().count() + " native samples in accept()");
        assertEquals(0, leafCount(samples.java().stacks(), "sun.nio.ch.Net.accept"));
        String acceptor = samples.inNative().stacks().counts().keySet().stream().filter(s -> s.endsWith("Net.accept")).findFirst().orElseThrow();
        assertTrue(acceptor.startsWith("java.lang.Thread.run;" + JfrSamplesTest.class.getName() + "$$Lambda.run;"),
                "the lambda's frame without its number and JFR's +0x suffix: " + acceptor);
    }

    private static long leafCount(CollapsedStacks stacks, String frame) {
        return stacks.counts().entrySet().stream().filter(e -> e.getKey().endsWith(";" + frame)).mapToLong(Map.Entry::getValue).sum();
    }

    private static String firstOutsideJdk(String stack) {
        String[] frames = stack.split(";");
        for (int i = frames.length - 1; i >= 0; i--) {
            if (!frames[i].matches("(java|javax|jdk|sun)\\..*")) {
                return frames[i];
            }
        }
        return null;
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }
}
