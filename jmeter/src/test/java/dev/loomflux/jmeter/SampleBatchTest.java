package dev.loomflux.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.apache.jmeter.samplers.SampleEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SampleBatchTest {
    @BeforeAll
    static void properties() {
        Samples.properties();
    }

    @Test
    void theControllerWritesTheRowsTheAgentWouldHave() {
        List<SampleEvent> sent = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            sent.add(Samples.http(i));
        }
        sent.add(Samples.failed(30));
        sent.add(Samples.transaction(31));
        sent.add(Samples.withoutVariable(32));
        sent.add(Samples.http(33));
        List<String> rows = sent.stream().map(Samples::row).toList();
        List<Long> bytes = sent.stream().map(e -> e.getResult().getHeadersSize() + e.getResult().getBodySizeAsLong()).toList();

        SampleBatch batch = new SampleBatch();
        for (SampleEvent e : sent) {
            SecondBatches.strip(e.getResult());
            batch.add(e);
        }
        @SuppressWarnings("unchecked")
        List<SampleEvent> received = (List<SampleEvent>) Samples.deserialize(Samples.serialize(batch));

        assertEquals(rows, received.stream().map(Samples::row).toList());
        for (int i = 0; i < sent.size(); i++) {
            SampleEvent s = sent.get(i);
            SampleEvent r = received.get(i);
            assertEquals(s.getThreadGroup(), r.getThreadGroup());
            assertEquals(s.isTransactionSampleEvent(), r.isTransactionSampleEvent(), "event " + i);
            assertEquals(s.getVarValue(0), r.getVarValue(0));
            assertEquals(s.getResult().getFirstAssertionFailureMessage(), r.getResult().getFirstAssertionFailureMessage());
            assertEquals(s.getResult().getIdleTime(), r.getResult().getIdleTime());
        }
        // The bytes received are the headers and body as the sampler counted them, before the agent dropped them.
        assertEquals(bytes.subList(0, 30), received.subList(0, 30).stream().map(e -> e.getResult().getBytesAsLong()).toList());
        assertTrue(rows.get(0).contains("," + bytes.get(0) + ","), rows.get(0));
        assertEquals("1", received.get(0).getVarValue(0));
        assertEquals("0", received.get(1).getVarValue(0));
        assertNull(received.get(32).getVarValue(0));
        assertTrue(received.get(31).isTransactionSampleEvent());
        assertNull(received.get(31).getResult().getURL());
        assertEquals("expect 2xx", received.get(30).getResult().getAssertionResults()[0].getName());
        assertTrue(received.get(30).getResult().getAssertionResults()[0].isFailure());
    }

    @Test
    void anEmptyBatchTravels() {
        assertEquals(List.of(), Samples.deserialize(Samples.serialize(new SampleBatch())));
    }

    /**
     * Bytes a sample, 1,000 samples of a load: the compact batch against JMeter's StrippedBatch (an ArrayList of events
     * stripped of their response data, in one stream) and StrippedAsynch at a low rate (one event a stream, as when
     * each send carries one sample; RMI starts a new stream for each call).
     */
    @Test
    void theCompactBatchIsSeveralTimesSmallerThanJmetersOwn() throws IOException {
        int n = 1_000;
        SampleBatch compact = new SampleBatch();
        samples(n, Samples::http).forEach(e -> {
            SecondBatches.strip(e.getResult());
            compact.add(e);
        });
        double compactBytes = Samples.serialize(compact).length / (double) n;
        List<SampleEvent> strippedBatch = new ArrayList<>(samples(n, i -> Samples.strippedByJmeter(Samples.http(i))));
        double batchBytes = Samples.serialize(strippedBatch).length / (double) n;
        long oneByOne = 0;
        for (SampleEvent e : strippedBatch) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(e);
            }
            oneByOne += bytes.size();
        }
        double asynchBytes = oneByOne / (double) n;
        System.out.printf("Bytes a sample (%,d samples): compact batch %.1f, StrippedBatch's ArrayList %.1f, one event a stream %.1f%n",
                n, compactBytes, batchBytes, asynchBytes);
        assertTrue(compactBytes * 3 <= batchBytes, compactBytes + " against " + batchBytes);
    }

    private static List<SampleEvent> samples(int n, IntFunction<SampleEvent> sample) {
        return IntStream.range(0, n).mapToObj(sample).toList();
    }
}
