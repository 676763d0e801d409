package dev.loomflux.jmeter;

import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.samplers.RemoteSampleListener;
import org.apache.jmeter.samplers.SampleEvent;

/** The controller's end as a sender sees it, in memory: what it was sent, in order, and when. */
final class RecordingListener implements RemoteSampleListener {
    /** A call: a batch (its samples) or the end of the test (the host), when it came. */
    record Call(List<SampleEvent> batch, String testEnded, long nanos) {
    }

    private final List<Call> calls = new ArrayList<>();

    @Override
    public synchronized void processBatch(List<SampleEvent> samples) {
        calls.add(new Call(List.copyOf(samples), null, System.nanoTime()));
        notifyAll();
    }

    @Override
    public synchronized void testEnded(String host) {
        calls.add(new Call(null, host, System.nanoTime()));
        notifyAll();
    }

    synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    synchronized List<SampleEvent> samples() {
        return calls.stream().filter(c -> c.batch() != null).flatMap(c -> c.batch().stream()).toList();
    }

    /** Waits until {@code n} samples came or {@code timeoutMs} passed. */
    synchronized void awaitSamples(int n, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (samples().size() < n && System.currentTimeMillis() < deadline) {
            wait(Math.max(1, deadline - System.currentTimeMillis()));
        }
    }

    // A sender of batches calls none of these.

    @Override
    public void testStarted() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void testStarted(String host) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void testEnded() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void sampleOccurred(SampleEvent e) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void sampleStarted(SampleEvent e) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void sampleStopped(SampleEvent e) {
        throw new UnsupportedOperationException();
    }
}
