package dev.loomflux.lab.db;

/** Where the targets read the item table from. */
public interface Database extends AutoCloseable {
    String jdbcUrl();

    String r2dbcUrl();

    String username();

    String password();

    /** For the results: "embedded PostgreSQL 18.1" or "external jdbc:postgresql://...". */
    String description();

    @Override
    void close();
}
