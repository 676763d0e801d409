package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesCsvTest {
    @TempDir
    Path dir;

    @Test
    void columnsFollowTheSchemaNotTheOrderFiguresWereAddedOrTheFirstRow() throws IOException {
        // The first row lacks the cgroup's figures (no reading covered that second); the second has them, added before the load's.
        Map<String, Object> first = row("cpu_pct", 50.0, "t", 0, "rps", 100.0);
        Map<String, Object> second = row("throttled_pct", 80.0, "t", 1, "rps", 110.0, "cpu_pct", 49.5, "extra", "x");
        Map<String, Object> result = Map.of("series", List.of(first, second));
        SeriesCsv.write(dir.resolve("s.csv"), result);
        assertEquals(List.of("t,rps,cpu_pct,throttled_pct,extra", "0,100.0,50.0,,", "1,110.0,49.5,80.0,x"), Files.readAllLines(dir.resolve("s.csv")));
    }

    private static Map<String, Object> row(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
