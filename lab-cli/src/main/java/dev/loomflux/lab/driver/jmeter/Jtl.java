package dev.loomflux.lab.driver.jmeter;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * JMeter's CSV results file (.jtl), read while JMeter appends to it: each call of {@link #next()}
 * returns the rows completed since the last, so that the lab can count seconds as they end. A row
 * JMeter has half written stays for the next call; a row ends at a line break outside quotes, since an
 * assertion's failure message is quoted and holds line breaks of its own.
 */
final class Jtl {
    /**
     * One request as JMeter saw it.
     *
     * @param startMs    when it was sent, epoch ms (JMeter's {@code timeStamp}, the default "start" stamp)
     * @param elapsedMs  until the whole response had arrived, whole ms: JMeter's resolution
     * @param code       the status, or JMeter's "Non HTTP response code: java.net.SocketException" for a failure below HTTP
     * @param thread     "group 1-3": the thread group and the user; with agents, the agent's address leads it
     * @param allThreads users alive in the whole test when it ended (with agents: on its agent)
     * @param success    JMeter's verdict: false for a failure below HTTP, a 4xx or 5xx, or a failed assertion (a flow's
     *                   status or extraction)
     * @param label      the sampler's name: the plan's request, a flow's step, a flow's transaction, or the agents' clock reading
     * @param message    JMeter's response message ("OK"; the clock reading's figures)
     * @param closed     the response closed its connection ({@link JmeterPlan#CLOSED}), so the user's next request opens a new one
     */
    record Sample(long startMs, long elapsedMs, String code, boolean success, String thread, long bytes, long sentBytes, int allThreads,
                  long connectMs, String failure, String label, String message, boolean closed) {
        long endMs() {
            return startMs + elapsedMs;
        }

        /** The same request with its send time moved by {@code ms}: an agent's clock read as the lab's. */
        Sample shifted(long ms) {
            return new Sample(startMs + ms, elapsedMs, code, success, thread, bytes, sentBytes, allThreads, connectMs, failure, label, message, closed);
        }
    }

    private static final CsvMapper CSV = new CsvMapper();

    private final Path file;
    /** Only the rows of HTTP requests: those with a URL. */
    private final boolean requestsOnly;
    private long offset;
    private CsvSchema schema;

    Jtl(Path file) {
        this(file, false);
    }

    /**
     * @param requestsOnly leave out the rows without a URL, which are no HTTP request: a user's plan may hold other
     *                     samplers (JSR223, debug) and transaction controllers, whose rows total their requests'
     */
    Jtl(Path file, boolean requestsOnly) {
        this.file = file;
        this.requestsOnly = requestsOnly;
    }

    /** Every row of a finished file. */
    static List<Sample> readAll(Path file) throws IOException {
        return new Jtl(file).next();
    }

    /** The rows completed since the last call; none while the file does not exist yet. */
    List<Sample> next() throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        String text;
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= offset) {
                return List.of();
            }
            byte[] bytes = new byte[(int) (length - offset)];
            in.seek(offset);
            in.readFully(bytes);
            int complete = lastRowEnd(bytes) + 1;
            if (complete == 0) {
                return List.of();
            }
            offset += complete;
            text = new String(bytes, 0, complete, StandardCharsets.UTF_8);
        }
        if (schema == null) {
            int eol = text.indexOf('\n');
            // JMeter quotes the names of the variables it saves (sample_variables): "loomflux_closed".
            List<String> names = Arrays.stream(text.substring(0, eol).strip().split(",")).map(n -> n.replaceAll("^\"(.*)\"$", "$1")).toList();
            schema = CsvSchema.builder().addColumns(names, CsvSchema.ColumnType.STRING).build();
            text = text.substring(eol + 1);
        }
        List<Sample> out = new ArrayList<>();
        try (MappingIterator<Map<String, String>> rows = CSV.readerFor(Map.class).with(schema).readValues(text)) {
            while (rows.hasNext()) {
                Map<String, String> row = rows.next();
                // JMeter writes "null" for a sample without a URL.
                if (!requestsOnly || row.getOrDefault("URL", "").regionMatches(true, 0, "http", 0, 4)) {
                    out.add(sample(row));
                }
            }
        }
        return out;
    }

    private static Sample sample(Map<String, String> r) {
        return new Sample(Long.parseLong(r.get("timeStamp")), Long.parseLong(r.get("elapsed")), r.get("responseCode"), Boolean.parseBoolean(r.get("success")),
                r.get("threadName"), number(r.get("bytes")), number(r.get("sentBytes")), (int) number(r.get("allThreads")), number(r.get("Connect")),
                r.getOrDefault("failureMessage", ""), r.getOrDefault("label", ""), r.getOrDefault("responseMessage", ""), "1".equals(r.get(JmeterPlan.CLOSED)));
    }

    private static long number(String s) {
        return s == null || s.isBlank() ? 0 : Long.parseLong(s.strip());
    }

    /** The last line break outside quotes ({@code ""} inside a quoted field opens and closes it at once), or -1. */
    private static int lastRowEnd(byte[] b) {
        int end = -1;
        boolean quoted = false;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '"') {
                quoted = !quoted;
            } else if (b[i] == '\n' && !quoted) {
                end = i;
            }
        }
        return end;
    }
}
