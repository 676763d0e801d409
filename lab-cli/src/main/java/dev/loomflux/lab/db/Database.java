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

    /**
     * Gives the target its own copy of table item in the seeded state (ItemCopies): {@link Seeder#ROWS} rows,
     * new ids from {@code ROWS + 1} on. Returns the copy's schema, which the target gets as
     * {@code loomflux.db.schema}. The lab does this as it starts each built-in target; call it again before
     * each of the target's measurements (sequential design) and before each set's rounds (paired design),
     * while no load runs, so that every measurement starts from the same rows. A target's sets share its copy.
     *
     * @throws dev.loomflux.lab.LabException when the copy cannot be made, in one line
     */
    default String resetCopy(String target) {
        return ItemCopies.reset(this, target);
    }

    /**
     * The rows in the target's copy now: {@link Seeder#ROWS}, plus the successful creates, minus the
     * successful deletes since its last {@link #resetCopy}.
     */
    default long copyRows(String target) {
        return ItemCopies.rows(this, target);
    }

    /** For the results: "embedded PostgreSQL 18.1" or "external jdbc:postgresql://...". */
    String description();

    @Override
    void close();
}
