package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesCsvTest {
    @TempDir
    Path dir;

    @Test
    void columnsFollowTheSchemaAndTheCgroupsOnlyWhenSomeSecondHasThem() throws IOException {
        // The first second lacks the cgroup's figures (no reading covered it); the second has them.
        Result.PerSecond first = Results.read("{'t': 0, 'rps': 100.0, 'errors': 0, 'users': 2, 'cpu_pct': 50.0}", Result.PerSecond.class);
        Result.PerSecond second = Results.read("{'t': 1, 'rps': 110.0, 'errors': 1, 'users': 2, 'cpu_pct': 49.5, 'throttled_pct': 80.0}",
                Result.PerSecond.class);
        SeriesCsv.write(dir.resolve("s.csv"), List.of(first, second));
        assertEquals(List.of("t,rps,p50,p99,errors,users,cpu_pct,rss_mb,threads,fds,jit_compiles,jit_ms,jit_cpu_ms,canary_us,stub_cpu_pct,db_cpu_pct,throttled_pct",
                "0,100.0,,,0,2,50.0,,,,,,,,,,", "1,110.0,,,1,2,49.5,,,,,,,,,,80.0"), Files.readAllLines(dir.resolve("s.csv")));
        SeriesCsv.write(dir.resolve("closed.csv"), List.of(first));
        assertEquals("t,rps,p50,p99,errors,users,cpu_pct,rss_mb,threads,fds,jit_compiles,jit_ms,jit_cpu_ms,canary_us,stub_cpu_pct,db_cpu_pct",
                Files.readAllLines(dir.resolve("closed.csv")).get(0), "no cgroup and no open model: their columns are left out");
    }
}
