package dev.loomflux.jmeter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;

/** Samples as JMeter's HTTP sampler and transaction controller make them, and the results file's rows of them. */
final class Samples {
    /** The variable the lab's plans save with each sample (lab-cli's JmeterPlan.CLOSED). */
    static final String CLOSED = "loomflux_closed";
    static final String GROUP = "Thread Group";
    private static final long T0 = 1_767_225_600_000L;
    private static final String[] LABELS = {"plaintext", "json", "db", "queries", "search"};
    private static final String[] THREADS = new String[8];

    static {
        for (int i = 0; i < THREADS.length; i++) {
            THREADS[i] = "127.0.0.1:1099-" + GROUP + " 1-" + (i + 1);
        }
    }

    private Samples() {
    }

    /** JMeter's properties as an agent of the lab's has them where they matter here; before any sample is made. */
    static synchronized void properties() {
        try {
            Path file = Files.createTempFile("jmeter", ".properties");
            Files.writeString(file, "sample_variables=" + CLOSED + "\n");
            JMeterUtils.loadJMeterProperties(file.toString());
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SampleEvent.initSampleVariables();
    }

    /** The {@code i}th sample of a load: an HTTP GET of one of five labels, with its headers, body and sampler data. */
    static SampleEvent http(int i) {
        HTTPSampleResult r = new HTTPSampleResult();
        long elapsed = 2 + i % 37;
        r.setStampAndTime(T0 + 3L * i + i % 5, elapsed);
        String label = LABELS[i % LABELS.length];
        r.setSampleLabel(label);
        r.setThreadName(THREADS[i % THREADS.length]);
        String url = "http://127.0.0.1:8080/" + label + (label.equals("db") ? "?id=" + i % 100 : "");
        r.setURL(url(url));
        r.setHTTPMethod("GET");
        // Labels and thread names are the same string from sample to sample, as JMeter's are; codes and messages are
        // new ones, as HttpClient's are (Java's serialization writes a string it has seen as a reference).
        r.setResponseCode(String.valueOf(200));
        r.setResponseMessage(new String("OK"));
        r.setSuccessful(true);
        String body = "{\"id\":" + i + ",\"message\":\"" + "Hello, World! ".repeat(1 + i % 20) + "\"}";
        String headers = "HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: " + body.length()
                + "\nDate: Thu, 01 Jan 2026 00:00:" + (10 + i % 50) + " GMT\n";
        r.setContentType("application/json");
        r.setEncodingAndType("application/json");
        r.setResponseHeaders(headers);
        r.setResponseData(body, "UTF-8");
        r.setHeadersSize(headers.length() + 1);
        r.setBodySize((long) body.getBytes(StandardCharsets.UTF_8).length);
        r.setRequestHeaders("Connection: keep-alive\nHost: 127.0.0.1:8080\nUser-Agent: Apache-HttpClient/4.5.14 (Java/17.0.15)\n");
        r.setSamplerData("GET " + url + "\n\nGET data:\n\n\n[no cookies]\n");
        r.setCookies("");
        r.setSentBytes(118 + url.length());
        r.setLatency(elapsed - 1);
        r.setConnectTime(i % 100 == 0 ? 1 : 0);
        r.setGroupThreads(THREADS.length);
        r.setAllThreads(THREADS.length);
        JMeterVariables vars = new JMeterVariables();
        vars.put(CLOSED, i % 100 == 0 ? "1" : "0");
        return new SampleEvent(r, GROUP, vars, false);
    }

    /** Like {@link #http} but answered 500 and failed by an assertion, whose message needs quoting in CSV. */
    static SampleEvent failed(int i) {
        SampleEvent e = http(i);
        SampleResult r = e.getResult();
        r.setResponseCode("500");
        r.setResponseMessage("Internal Server Error");
        r.setSuccessful(false);
        AssertionResult a = new AssertionResult("expect 2xx");
        a.setFailure(true);
        a.setFailureMessage("Test failed: code expected to match /^2\\d\\d$/, \"500\" did not");
        r.addAssertionResult(a);
        return e;
    }

    /** A transaction controller's own sample (not a parent sample): no URL, its pauses as idle time, a message of its own. */
    static SampleEvent transaction(int i) {
        SampleResult r = new SampleResult();
        r.setStampAndTime(T0 + 3L * i, 40);
        r.setIdleTime(12);
        r.setSampleLabel("buy");
        r.setThreadName(THREADS[0]);
        r.setResponseCode("200");
        r.setResponseMessage("Number of samples in transaction : 2, number of failing samples : 0");
        r.setSuccessful(true);
        r.setBytes(2_345);
        r.setSentBytes(310);
        r.setLatency(17);
        r.setAllThreads(THREADS.length);
        r.setGroupThreads(THREADS.length);
        JMeterVariables vars = new JMeterVariables();
        vars.put(CLOSED, "0");
        return new SampleEvent(r, GROUP, vars, true);
    }

    /** A sample whose thread has not set the sample variable: its value is null. */
    static SampleEvent withoutVariable(int i) {
        SampleEvent e = http(i);
        return new SampleEvent(e.getResult(), GROUP, new JMeterVariables(), false);
    }

    /** A sample as {@link SecondBatches#sampleOccurred} tells them apart in tests: thread {@code thread}'s {@code n}th. */
    static SampleEvent numbered(String thread, int n) {
        SampleResult r = new SampleResult(System.currentTimeMillis(), 1);
        r.setThreadName(thread);
        r.setSampleLabel("tick");
        r.setResponseMessage(Integer.toString(n));
        r.setSuccessful(true);
        return new SampleEvent(r, GROUP, new JMeterVariables(), false);
    }

    /** As JMeter's DataStrippingSampleSender strips a sample (StrippedBatch, StrippedAsynch): its response data only. */
    static SampleEvent strippedByJmeter(SampleEvent e) {
        e.getResult().setBytes(e.getResult().getBytesAsLong());
        e.getResult().setResponseData(new byte[0]);
        return e;
    }

    /** The sample's row in a results file of the columns the lab writes (lab-cli's JmeterProcess), and IdleTime. */
    static String row(SampleEvent e) {
        SampleSaveConfiguration c = new SampleSaveConfiguration(false);
        c.setAsXml(false);
        c.setDateFormat(null);
        c.setTimestamp(true);
        c.setTime(true);
        c.setLabel(true);
        c.setCode(true);
        c.setMessage(true);
        c.setThreadName(true);
        c.setDataType(true);
        c.setSuccess(true);
        c.setAssertionResultsFailureMessage(true);
        c.setBytes(true);
        c.setSentBytes(true);
        c.setThreadCounts(true);
        c.setUrl(true);
        c.setLatency(true);
        c.setIdleTime(true);
        c.setConnectTime(true);
        return CSVSaveService.resultToDelimitedString(e, e.getResult(), c, ",");
    }

    static byte[] serialize(Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static URL url(String s) {
        try {
            return new URL(s);
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(s, e);
        }
    }
}
