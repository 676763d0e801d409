package dev.loomflux.lab.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Creates and fills table {@code item}: 10,000 deterministic rows, left alone if already right. */
public final class Seeder {
    public static final int ROWS = 10_000;

    private Seeder() {
    }

    /** @return true if rows were (re)written, false if the table was already correct */
    public static boolean seed(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS item ("
                    + "id bigint PRIMARY KEY, name text NOT NULL, price_cents bigint NOT NULL)");
            if (isSeeded(s)) {
                return false;
            }
            s.execute("TRUNCATE item");
            s.execute("INSERT INTO item (id, name, price_cents) "
                    + "SELECT g, 'item-' || lpad(g::text, 5, '0'), (g * 7919) % 100000 "
                    + "FROM generate_series(1, " + ROWS + ") AS g");
            s.execute("ANALYZE item");
            return true;
        }
    }

    private static boolean isSeeded(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*), min(id), max(id), "
                + "sum(CASE WHEN name = 'item-' || lpad(id::text, 5, '0') AND price_cents = (id * 7919) % 100000 THEN 1 ELSE 0 END) "
                + "FROM item")) {
            rs.next();
            return rs.getLong(1) == ROWS && rs.getLong(2) == 1 && rs.getLong(3) == ROWS && rs.getLong(4) == ROWS;
        }
    }
}
