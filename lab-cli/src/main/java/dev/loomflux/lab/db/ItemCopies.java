package dev.loomflux.lab.db;

import dev.loomflux.lab.LabException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Each built-in target's own copy of table {@code item}, in a schema of its own, so that no target reads
 * rows another one wrote and every measurement can start from the same 10,000 rows. The lab passes the
 * schema to the target as {@code loomflux.db.schema}; its pools then find {@code item} there and only there.
 * In a database given with --db-url, the lab's user needs the right to create schemas.
 */
final class ItemCopies {
    /**
     * Names that are plain SQL identifiers once prefixed. Target names have at most 40 characters (Targets),
     * so every schema name stays within PostgreSQL's 63.
     */
    private static final Pattern PLAIN = Pattern.compile("[a-z0-9_]{1,40}");
    /** A reset waits this long for a lock (a transaction still open in the copy, another reset of it) before it gives up. */
    private static final String LOCK_TIMEOUT = "30s";

    private ItemCopies() {
    }

    /**
     * {@code t_} and the target's name when that is a plain identifier (t_mvc, t_webflux). Any other name
     * has each other character replaced by {@code _} and its hash appended (mvc-vt: t_mvc_vt_ and 8 hex
     * digits), so that mvc-vt and mvc_vt do not share a copy.
     */
    static String schemaOf(String target) {
        if (PLAIN.matcher(target).matches()) {
            return "t_" + target;
        }
        String plain = target.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return "t_" + plain + "_" + String.format("%08x", target.hashCode());
    }

    /**
     * Drops the target's schema and makes it again: the seeded rows, the identity back at its start, fresh
     * statistics and no dead rows left by earlier writes. One transaction, so a target never sees half a
     * copy; an advisory lock on the schema's name makes two resets of one copy (two sets of a target
     * starting at once) wait for each other instead of colliding.
     *
     * @return the schema
     */
    static String reset(Database db, String target) {
        String schema = schemaOf(target);
        try (Connection c = connect(db)) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL lock_timeout = '" + LOCK_TIMEOUT + "'");
                s.execute("SELECT pg_advisory_xact_lock(hashtext('" + schema + "'))");
                endLeftTransactions(s, schema);
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
                s.execute("CREATE SCHEMA " + schema);
                s.execute(Seeder.create(schema + ".item"));
                Seeder.fill(s, schema + ".item");
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new LabException(target + ": cannot make its copy of table item (schema " + schema + ") in " + db.description() + ": " + firstLine(e));
        }
        return schema;
    }

    /**
     * Ends the sessions that sit idle inside a transaction holding a lock on the copy: between loads nobody uses them, and the
     * drop would wait for them for ever. A load cut off mid-request (a warmup's end cancels its requests in flight) left one
     * in a reactive target's pool at 50 users on crud, and its copy could not be reset (docs/steady-state.md, "Warm at the
     * measured load"). The target's pool finds the connection closed and opens another.
     */
    private static void endLeftTransactions(Statement s, String schema) throws SQLException {
        s.execute("SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a WHERE a.state LIKE 'idle in transaction%' AND a.pid <> pg_backend_pid()"
                + " AND EXISTS (SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE l.pid = a.pid AND n.nspname = '" + schema + "')");
    }

    static long rows(Database db, String target) {
        String schema = schemaOf(target);
        try (Connection c = connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + schema + ".item")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new LabException(target + ": cannot count the rows of its copy of table item (schema " + schema + ") in " + db.description() + ": " + firstLine(e));
        }
    }

    private static Connection connect(Database db) throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
    }

    private static String firstLine(SQLException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
