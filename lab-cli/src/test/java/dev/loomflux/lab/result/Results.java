package dev.loomflux.lab.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.Home;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How tests read and write results.json: always through the lab's one mapper ({@link Json}), never one of
 * their own. A test finds the run a command made in the lab's own results directory, not on its console:
 * take {@link #runDirs} before the command, and {@link #madeSince} gives the run directories it made.
 */
public final class Results {
    /** A run directory's name, as {@link Home#newRunDir} makes it: results/yyyyMMdd-HHmmss-NAME (not calibrate/ or agent-PORT/). */
    private static final Pattern RUN_DIR = Pattern.compile("\\d{8}-\\d{6}-.+");

    private Results() {
    }

    /** The run directories under results/ now. */
    public static Set<Path> runDirs() {
        Path results = Home.detect().results();
        if (!Files.isDirectory(results)) {
            return Set.of();
        }
        try (Stream<Path> dirs = Files.list(results)) {
            return dirs.filter(d -> Files.isDirectory(d) && RUN_DIR.matcher(d.getFileName().toString()).matches()).collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The run directories made since {@code before} was taken, oldest first. */
    public static List<Path> madeSince(Set<Path> before) {
        return runDirs().stream().filter(d -> !before.contains(d)).sorted().toList();
    }

    /** The one run directory of {@code made}; fails the test, quoting {@code what} (the command's output), when there is none or more than one. */
    public static Path one(List<Path> made, Object what) {
        if (made.size() != 1) {
            throw new AssertionError((made.isEmpty() ? "no run directory made" : "more than one run directory made: " + made) + " in " + Home.detect().results()
                    + "\n" + what);
        }
        return made.get(0);
    }

    /** The results.json in a run directory, as the lab's own records. */
    public static RunRecord record(Path runDir) throws IOException {
        return RunRecord.read(runDir.resolve("results.json"));
    }

    /** A results.json as a tree, for a test that edits a fixture's fields by the names it writes. */
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
