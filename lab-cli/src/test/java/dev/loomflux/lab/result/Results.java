package dev.loomflux.lab.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How tests read and write results.json: always through the lab's one mapper ({@link Json}), never one of
 * their own. A lab's run names its file on the console line {@code results: PATH}; {@link #file} finds it.
 */
public final class Results {
    private static final Pattern LINE = Pattern.compile("results: (\\S+results\\.json)");

    private Results() {
    }

    /** The results.json a lab's console output names; fails the test, quoting the output, when it names none. */
    public static Path file(String labOutput) {
        Matcher m = LINE.matcher(labOutput);
        if (!m.find()) {
            throw new AssertionError("no 'results: .../results.json' line in the lab's output:\n" + labOutput);
        }
        return Path.of(m.group(1));
    }

    /** The run's results.json, as the lab's own records. */
    public static RunRecord record(String labOutput) throws IOException {
        return RunRecord.read(file(labOutput));
    }

    /** The run's results.json as a tree, for tests that check its fields by the names it writes. */
    public static JsonNode tree(String labOutput) throws IOException {
        return tree(file(labOutput));
    }

    public static JsonNode tree(Path file) throws IOException {
        return Json.MAPPER.readTree(file.toFile());
    }

    /** A tree, edited from a real run's, written back as results.json for the lab to read. */
    public static void write(Path file, JsonNode tree) throws IOException {
        Json.MAPPER.writeValue(file.toFile(), tree);
    }

    /** A test's record written as results.json writes it, in single quotes for readability: {'status': 'ok', ...}. */
    public static Result result(String json) {
        return read(json, Result.class);
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return Json.MAPPER.readValue(json.replace('\'', '"'), type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
