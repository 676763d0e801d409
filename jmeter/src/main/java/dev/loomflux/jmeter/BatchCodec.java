package dev.loomflux.jmeter;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.URL;
import java.util.List;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * A batch of samples in the compact form, written on the agent and read on the controller. Only what the controller's
 * results file shows of a sample travels: its time stamp and elapsed time, label, response code and message, thread
 * name and group, data type, success, bytes (received, as counted before stripping, and sent), thread counts, connect
 * time, latency, idle time, URL, its assertions' failure messages (with their names), its sample variables and whether
 * it is a transaction's sample. Not: response data, headers, sampler data, sub-results, sample and error counts,
 * encoding, file name, and the agent's host name (the rebuilt event has the controller's: JMeter's constructors that
 * take variables set no other, and the results file shows it only when jmeter.save.saveservice.hostname is on).
 * <p>
 * The batch opens with the names of the sample variables (the agent's sample_variables) and the number of samples;
 * each sample's time stamp is the difference from the one before. The controller saves a variable by name, as its own
 * sample_variables says. {@link #write} and {@link #read} keep the fields in the same order, side by side here: a
 * change to one is a change to both, and to the serialVersionUID of {@link SampleBatch}'s serial form, so that an
 * agent and a controller of different builds fail on the first batch, in words.
 */
final class BatchCodec {
    private static final int SUCCESS = 1;
    private static final int TRANSACTION = 2;
    private static final int FAILURE = 1;
    private static final int ERROR = 2;

    private BatchCodec() {
    }

    static void write(List<SampleEvent> events, DataOutput out) throws IOException {
        WireOut w = new WireOut(out);
        int vars = SampleEvent.getVarCount();
        w.unsigned(vars);
        for (int i = 0; i < vars; i++) {
            w.string(SampleEvent.getVarName(i));
        }
        w.unsigned(events.size());
        long lastStamp = 0;
        for (SampleEvent e : events) {
            SampleResult r = e.getResult();
            w.signed(r.getTimeStamp() - lastStamp);
            lastStamp = r.getTimeStamp();
            w.signed(r.getTime());
            w.string(r.getSampleLabel());
            w.string(r.getResponseCode());
            w.string(r.getResponseMessage());
            w.string(r.getThreadName());
            w.string(e.getThreadGroup());
            w.string(r.getDataType());
            w.unsigned((r.isSuccessful() ? SUCCESS : 0) | (e.isTransactionSampleEvent() ? TRANSACTION : 0));
            w.signed(r.getBytesAsLong());
            w.signed(r.getSentBytes());
            w.unsigned(r.getGroupThreads());
            w.unsigned(r.getAllThreads());
            w.signed(r.getConnectTime());
            w.signed(r.getLatency());
            w.signed(r.getIdleTime());
            w.string(r.getURL() == null ? null : r.getURL().toExternalForm());
            writeFailures(r.getAssertionResults(), w);
            for (int i = 0; i < vars; i++) {
                w.string(e.getVarValue(i));
            }
        }
    }

    static SampleBatch read(DataInput in) throws IOException {
        WireIn w = new WireIn(in);
        String[] names = new String[w.count()];
        for (int i = 0; i < names.length; i++) {
            names[i] = w.string();
        }
        int size = w.count();
        SampleBatch events = new SampleBatch();
        // SampleEvent copies the values it is given, so one set of variables serves the whole batch.
        JMeterVariables vars = new JMeterVariables();
        long stamp = 0;
        for (int n = 0; n < size; n++) {
            stamp += w.signed();
            long elapsed = w.signed();
            SampleResult r = new SampleResult(stamp, elapsed);
            r.setSampleLabel(w.string());
            r.setResponseCode(w.string());
            r.setResponseMessage(w.string());
            r.setThreadName(w.string());
            String threadGroup = w.string();
            r.setDataType(w.string());
            int flags = w.count();
            r.setSuccessful((flags & SUCCESS) != 0);
            r.setBytes(w.signed());
            r.setSentBytes(w.signed());
            r.setGroupThreads(w.count());
            r.setAllThreads(w.count());
            r.setConnectTime(w.signed());
            r.setLatency(w.signed());
            r.setIdleTime(w.signed());
            String url = w.string();
            r.setURL(url == null ? null : new URL(url));
            readFailures(r, w);
            for (String name : names) {
                String value = w.string();
                if (value == null) {
                    vars.remove(name);
                } else {
                    vars.put(name, value);
                }
            }
            events.add(new SampleEvent(r, threadGroup, vars, (flags & TRANSACTION) != 0));
        }
        return events;
    }

    /** The assertions that have a failure message (the results file shows the first one's), with their names and flags. */
    private static void writeFailures(AssertionResult[] assertions, WireOut w) throws IOException {
        int withMessage = 0;
        for (AssertionResult a : assertions) {
            withMessage += a.getFailureMessage() == null ? 0 : 1;
        }
        w.unsigned(withMessage);
        for (AssertionResult a : assertions) {
            if (a.getFailureMessage() != null) {
                w.unsigned((a.isFailure() ? FAILURE : 0) | (a.isError() ? ERROR : 0));
                w.string(a.getName());
                w.string(a.getFailureMessage());
            }
        }
    }

    private static void readFailures(SampleResult r, WireIn w) throws IOException {
        int count = w.count();
        for (int i = 0; i < count; i++) {
            int flags = w.count();
            AssertionResult a = new AssertionResult(w.string());
            a.setFailure((flags & FAILURE) != 0);
            a.setError((flags & ERROR) != 0);
            a.setFailureMessage(w.string());
            r.addAssertionResult(a);
        }
    }
}
