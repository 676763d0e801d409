package dev.loomflux.jmeter;

import java.io.Serial;
import java.io.Serializable;
import java.rmi.RemoteException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.AbstractSampleSender;
import org.apache.jmeter.samplers.RemoteSampleListener;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a JMeter agent sends its samples to the controller for the lab: {@code -Jmode=dev.loomflux.jmeter.SecondBatches}
 * on the controller, this jar in both homes' lib/ext. The controller constructs it and JMeter serializes it to each
 * agent with the plan; only {@link #listener} travels, the rest is set up on the agent by {@link #readResolve}.
 * <p>
 * The agent keeps its samples, stripped to what the controller writes, and sends them in one call ({@link SampleBatch},
 * compact on the wire) once the oldest has waited {@link #MAX_WAIT_MS} or no sample came for {@link #QUIET_MS}. So a
 * sample reaches the controller within about a second while the load runs, and within a tick of {@link #QUIET_MS} once
 * it goes quiet (the end of a burst or of a block): JMeter's own batches only leave when a later sample comes, and the
 * last ones of a quiet spell wait for the next load. The sends happen on one timer thread: the samplers' threads never
 * wait for the network, and batches go in order, so each thread's samples arrive in the order they ended.
 */
public final class SecondBatches extends AbstractSampleSender implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(SecondBatches.class);

    /** A batch leaves once its oldest sample has waited this long: the lab counts seconds live. */
    static final long MAX_WAIT_MS = 1000;
    /** ...or once no sample came for this long: the load went quiet, and what it did is wanted now. */
    static final long QUIET_MS = 50;
    /** How often the timer looks; a quiet spell is noticed within QUIET_MS + TICK_MS. */
    static final long TICK_MS = 20;
    private static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MS);
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(QUIET_MS);
    /** How long testEnded waits for a send under way before it sends the rest. */
    private static final long LAST_SEND_WAIT_S = 30;

    private static final byte[] NO_DATA = new byte[0];

    private final RemoteSampleListener listener;

    /** Guards the batch being filled and its times. */
    private transient Object lock;
    private transient SampleBatch pending;
    private transient long firstNanos;
    private transient long lastNanos;
    private transient ScheduledExecutorService timer;

    /** JMeter's SampleSenderFactory calls it on the controller, with the controller's listener. */
    public SecondBatches(RemoteSampleListener listener) {
        this.listener = listener;
    }

    /** On the agent, as the plan arrives: acts as testStarted. */
    @Serial
    private Object readResolve() {
        start();
        return this;
    }

    /** Sets up the batch and starts the timer (the agent's side). */
    void start() {
        lock = new Object();
        pending = new SampleBatch();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loomflux-second-batches");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        log.info("Sending samples in batches: when the oldest has waited {} ms, or after {} ms without a sample", MAX_WAIT_MS, QUIET_MS);
    }

    /** Called by many sampler threads at once. */
    @Override
    public void sampleOccurred(SampleEvent event) {
        strip(event.getResult());
        long now = System.nanoTime();
        synchronized (lock) {
            if (pending.isEmpty()) {
                firstNanos = now;
            }
            lastNanos = now;
            pending.add(event);
        }
    }

    /**
     * Sends the rest, then tells the controller that the test ended on {@code host}: after every sample, as JMeter's
     * batch senders do. The timer stops first, and a send of its own under way finishes, so that no batch overtakes
     * another.
     */
    @Override
    public void testEnded(String host) {
        timer.shutdown();
        try {
            if (!timer.awaitTermination(LAST_SEND_WAIT_S, TimeUnit.SECONDS)) {
                log.warn("A batch was still being sent after {} s; sending the rest anyway", LAST_SEND_WAIT_S);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        send(take());
        try {
            listener.testEnded(host);
        } catch (RemoteException e) {
            log.error("Could not tell the controller that the test ended on {}", host, e);
        }
    }

    /** The timer's look: sends the batch when it is due. Never throws, which would end the timer's schedule. */
    private void tick() {
        try {
            if (due(System.nanoTime())) {
                send(take());
            }
        } catch (RuntimeException e) {
            log.error("Could not send a batch of samples", e);
        }
    }

    private boolean due(long now) {
        synchronized (lock) {
            return !pending.isEmpty() && (now - lastNanos >= QUIET_NANOS || now - firstNanos >= MAX_WAIT_NANOS);
        }
    }

    private SampleBatch take() {
        synchronized (lock) {
            SampleBatch taken = pending;
            pending = new SampleBatch();
            return taken;
        }
    }

    private void send(SampleBatch batch) {
        if (batch.isEmpty()) {
            return;
        }
        try {
            listener.processBatch(batch);
        } catch (RemoteException e) {
            log.error("Could not send {} samples to the controller; they are lost", batch.size(), e);
        }
    }

    /**
     * Drops what the controller does not write, so that a second of samples takes little of the agent's memory:
     * response data, headers, sampler data and sub-results. The bytes received are counted first, as JMeter's
     * DataStrippingSampleSender does: the count is what the results file shows.
     */
    static void strip(SampleResult result) {
        result.setBytes(result.getBytesAsLong());
        result.setResponseData(NO_DATA);
        result.setResponseHeaders("");
        result.setRequestHeaders("");
        result.setSamplerData(null);
        result.removeSubResults();
    }
}
