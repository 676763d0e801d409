package dev.loomflux.lab.db;

import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** A real PostgreSQL (embedded) started once for the tests of a class that extends this one, and stopped after them. */
abstract class OnePostgres {
    @TempDir
    static Path dir;
    static LabProcesses processes;
    static EmbeddedDatabase db;

    @BeforeAll
    static void start() {
        processes = new LabProcesses();
        db = EmbeddedDatabase.start(processes, dir.resolve("postgres"), line -> { });
    }

    @AfterAll
    static void stop() {
        db.close();
        processes.close();
    }
}
