package dev.loomflux.lab.cli;

import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.db.DatabaseSource;
import dev.loomflux.lab.db.EmbeddedDatabase;
import dev.loomflux.lab.db.ExternalDatabase;
import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Path;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/** Embedded PostgreSQL by default, or an existing server. */
public final class DatabaseOptions implements DatabaseSource {
    private final LabProcesses processes;

    @Option(names = "--db-url", paramLabel = "JDBC_URL",
            description = "Use an existing PostgreSQL (jdbc:postgresql://host:port/db) instead of the embedded one; the lab seeds table item if needed.")
    String url;

    @Option(names = "--db-user", paramLabel = "USER", defaultValue = "loomflux", description = "User for --db-url. Default: ${DEFAULT-VALUE}.")
    String user;

    @Option(names = "--db-password", paramLabel = "PASSWORD", defaultValue = "${env:LOOMFLUX_DB_PASSWORD:-loomflux}",
            description = "Password for --db-url. Default: $LOOMFLUX_DB_PASSWORD, else loomflux.")
    String password;

    public DatabaseOptions(LabProcesses processes) {
        this.processes = processes;
    }

    @Override
    public Database open(Path runDir, Consumer<String> onRestart) {
        if (url != null) {
            return ExternalDatabase.connect(url, user, password);
        }
        return EmbeddedDatabase.start(processes, runDir.resolve("postgres"), onRestart);
    }
}
