package dev.loomflux.lab.db;

import java.util.List;

/** Where the targets read the item table from. */
public interface Database extends AutoCloseable {
    String jdbcUrl();

    String r2dbcUrl();

    String username();

    String password();

    /** The server's processes on this machine, for pinning and sampling; empty for a remote server. */
    default List<Long> pids() {
        return List.of();
    }

    /** How often the server died and was started again; a measurement during which this changed lost its database. */
    default int restarts() {
        return 0;
    }

    /** For the results: "embedded PostgreSQL 18.1" or "external jdbc:postgresql://...". */
    String description();

    @Override
    void close();
}
