package dev.loomflux.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serial;
import java.io.Serializable;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.jmeter.samplers.RemoteSampleListener;
import org.apache.jmeter.samplers.SampleEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sender against an in-memory controller. The machine may be busy: each time bound here is many times what the
 * sender needs, and is one that a sender without the rule under test could not meet.
 */
class SecondBatchesTest {
    @BeforeAll
    static void properties() {
        Samples.properties();
    }

    @Test
    void samplesThatStopComingLeaveWithoutWaitingForMore() throws Exception {
        RecordingListener controller = new RecordingListener();
        SecondBatches sender = started(controller);
        long first = System.nanoTime();
        burst(sender, 4, 25);
        controller.awaitSamples(100, 10_000);

        assertEachOnceInOrder(controller.samples(), 4, 25);
        // The second's rule sends a batch a second after its first sample at the earliest: sooner is the quiet rule.
        long lastCall = controller.calls().get(controller.calls().size() - 1).nanos();
        assertTrue(lastCall - first < TimeUnit.MILLISECONDS.toNanos(SecondBatches.MAX_WAIT_MS),
                (lastCall - first) / 1_000_000 + " ms");
        sender.testEnded("agent");
    }

    @Test
    void whileSamplesKeepComingABatchLeavesEverySecond() throws Exception {
        RecordingListener controller = new RecordingListener();
        SecondBatches sender = started(controller);
        List<Long> sentAt = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3_500);
        while (System.nanoTime() < end) {
            sentAt.add(System.nanoTime());
            sender.sampleOccurred(Samples.numbered("t", sentAt.size() - 1));
            Thread.sleep(10);
        }
        int batchesWhileSending = controller.calls().size();
        controller.awaitSamples(sentAt.size(), 10_000);
        sender.testEnded("agent");

        assertEachOnceInOrder(controller.samples(), 1, sentAt.size());
        assertTrue(batchesWhileSending >= 2, batchesWhileSending + " batches while samples kept coming");
        long longestWait = 0;
        int n = 0;
        for (RecordingListener.Call c : controller.calls()) {
            if (c.batch() != null) {
                for (int i = 0; i < c.batch().size(); i++, n++) {
                    longestWait = Math.max(longestWait, c.nanos() - sentAt.get(n));
                }
            }
        }
        // A second, and much room for a busy machine; without the second's rule the first sample waits 3.5 s.
        assertTrue(longestWait < TimeUnit.MILLISECONDS.toNanos(2_500), longestWait / 1_000_000 + " ms");
    }

    @Test
    void testEndedSendsTheRestThenTheEnd() throws Exception {
        RecordingListener controller = new RecordingListener();
        SecondBatches sender = started(controller);
        burst(sender, 3, 200);
        sender.testEnded("127.0.0.1:1099");

        List<RecordingListener.Call> calls = controller.calls();
        assertEquals("127.0.0.1:1099", calls.get(calls.size() - 1).testEnded());
        assertTrue(calls.subList(0, calls.size() - 1).stream().allMatch(c -> c.testEnded() == null), "one end, after the samples");
        assertEachOnceInOrder(controller.samples(), 3, 200);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (timerRuns() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(!timerRuns(), "the timer stopped");
    }

    @Test
    void theSenderStartsOnTheAgentItTravelsTo() throws Exception {
        Forward.to = new RecordingListener();
        SecondBatches agentSide = (SecondBatches) Samples.deserialize(Samples.serialize(new SecondBatches(new Forward())));
        agentSide.sampleOccurred(Samples.numbered("t", 0));
        Forward.to.awaitSamples(1, 10_000);
        assertEquals(1, Forward.to.samples().size(), "sent by the timer readResolve started");
        agentSide.testEnded("agent");
        assertEquals("agent", Forward.to.calls().get(1).testEnded());
        assertNull(Forward.to.calls().get(0).testEnded());
    }

    private static SecondBatches started(RemoteSampleListener controller) {
        SecondBatches sender = new SecondBatches(controller);
        sender.start();
        return sender;
    }

    /** {@code threads} threads at once, each sending {@code each} numbered samples as fast as it can. */
    private static void burst(SecondBatches sender, int threads, int each) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "t" + t;
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (int n = 0; n < each; n++) {
                    sender.sampleOccurred(Samples.numbered(name, n));
                }
            });
            thread.start();
            started.add(thread);
        }
        go.countDown();
        for (Thread t : started) {
            t.join();
        }
    }

    /** Every thread's samples arrived once each, in the order the thread sent them. */
    private static void assertEachOnceInOrder(List<SampleEvent> received, int threads, int each) {
        Map<String, List<Integer>> byThread = received.stream().collect(Collectors.groupingBy(e -> e.getResult().getThreadName(), TreeMap::new,
                Collectors.mapping(e -> Integer.parseInt(e.getResult().getResponseMessage()), Collectors.toList())));
        assertEquals(threads, byThread.size(), byThread.keySet().toString());
        List<Integer> expected = IntStream.range(0, each).boxed().toList();
        byThread.forEach((thread, numbers) -> assertEquals(expected, numbers, thread));
    }

    private static boolean timerRuns() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("loomflux-second-batches") && t.isAlive());
    }

    /** A listener that survives serialization as the controller's RMI stub does: the copy reaches the same recorder. */
    private static final class Forward implements RemoteSampleListener, Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
        static volatile RecordingListener to;

        @Override
        public void processBatch(List<SampleEvent> samples) {
            to.processBatch(samples);
        }

        @Override
        public void testEnded(String host) {
            to.testEnded(host);
        }

        @Override
        public void testStarted() throws RemoteException {
            to.testStarted();
        }

        @Override
        public void testStarted(String host) throws RemoteException {
            to.testStarted(host);
        }

        @Override
        public void testEnded() throws RemoteException {
            to.testEnded();
        }

        @Override
        public void sampleOccurred(SampleEvent e) throws RemoteException {
            to.sampleOccurred(e);
        }

        @Override
        public void sampleStarted(SampleEvent e) throws RemoteException {
            to.sampleStarted(e);
        }

        @Override
        public void sampleStopped(SampleEvent e) throws RemoteException {
            to.sampleStopped(e);
        }
    }
}
