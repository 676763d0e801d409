package dev.loomflux.lab.result;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * results.json, rewritten atomically after every finished target x scenario, so Ctrl-C or a
 * crashing target never loses what was already measured. Schema: docs/results-schema.md.
 */
public final class ResultsFile {
    public static final int SCHEMA = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private final Map<String, Object> root = new LinkedHashMap<>();
    private final List<Map<String, Object>> results = new ArrayList<>();

    public ResultsFile(Path dir, String runId, Map<String, Object> environment, Map<String, Object> experiment) {
        this.file = dir.resolve("results.json");
        root.put("schema", SCHEMA);
        root.put("run_id", runId);
        root.put("status", "running");
        root.put("started_at", Instant.now().toString());
        root.put("finished_at", null);
        root.put("environment", environment);
        root.put("experiment", experiment);
        root.put("results", results);
        write();
    }

    public Path path() {
        return file;
    }

    /** The results so far, in the order they finished. */
    public synchronized List<Map<String, Object>> results() {
        return List.copyOf(results);
    }

    public synchronized void add(Map<String, Object> result) {
        results.add(result);
        write();
    }

    /** A top-level section such as "summary", written with the next update. */
    public synchronized void put(String key, Object value) {
        root.put(key, value);
    }

    /** @param status completed, interrupted or failed */
    public synchronized void finish(String status) {
        root.put("status", status);
        root.put("finished_at", Instant.now().toString());
        write();
    }

    private void write() {
        Path tmp = file.resolveSibling("results.json.tmp");
        try {
            JSON.writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    public static Map<String, Object> read(Path file) throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = JSON.readValue(file.toFile(), Map.class);
        return m;
    }
}
