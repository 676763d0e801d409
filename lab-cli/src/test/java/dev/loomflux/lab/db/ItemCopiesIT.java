package dev.loomflux.lab.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.LabException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Each target's copy of item on a real PostgreSQL (embedded, started once): made, counted, reset, kept apart. */
class ItemCopiesIT extends OnePostgres {

    @Test
    void aResetCopyHoldsTheSeededRowsAndHandsOutIdsAboveThem() throws SQLException {
        String schema = db.resetCopy("copies-a");
        assertEquals(ItemCopies.schemaOf("copies-a"), schema);
        assertEquals(Seeder.ROWS, db.copyRows("copies-a"));
        try (Connection c = connect(schema)) {
            assertEquals(Seeder.ROWS + 1, insert(c));
            assertEquals(Seeder.ROWS + 2, insert(c));
            assertEquals("item-00042", one(c, "SELECT name FROM item WHERE id = 42"));
            c.createStatement().executeUpdate("DELETE FROM item WHERE id IN (1, 10001)");
        }
        assertEquals(Seeder.ROWS + 2 - 2, db.copyRows("copies-a"));
        db.resetCopy("copies-a");
        assertEquals(Seeder.ROWS, db.copyRows("copies-a"));
        try (Connection c = connect(schema)) {
            assertEquals("item-00001", one(c, "SELECT name FROM item WHERE id = 1"));
            assertEquals(Seeder.ROWS + 1, insert(c), "the identity starts again above the seeded rows");
        }
    }

    @Test
    void writesToOneTargetsCopyLeaveTheOthersAlone() throws SQLException {
        db.resetCopy("copies-b");
        db.resetCopy("copies-c");
        try (Connection c = connect(ItemCopies.schemaOf("copies-b"))) {
            insert(c);
            insert(c);
        }
        assertEquals(Seeder.ROWS + 2, db.copyRows("copies-b"));
        assertEquals(Seeder.ROWS, db.copyRows("copies-c"));
    }

    /** A target's pool keeps its connections, and pgjdbc its server-side prepared statements, across a reset. */
    @Test
    void aConnectionKeptAcrossAResetFindsTheNewCopy() throws SQLException {
        String schema = db.resetCopy("copies-d");
        try (Connection c = connect(schema); PreparedStatement count = c.prepareStatement("SELECT count(*) FROM item WHERE id > ?")) {
            // Past pgjdbc's prepareThreshold (5): the statement is now prepared on the server.
            for (int i = 0; i < 6; i++) {
                insert(c);
            }
            count.setLong(1, 0);
            for (int i = 0; i < 6; i++) {
                assertEquals(Seeder.ROWS + 6, count(count));
            }
            db.resetCopy("copies-d");
            assertEquals(Seeder.ROWS, count(count));
            assertEquals(Seeder.ROWS + 1, insert(c));
        }
    }

    @Test
    void resetsOfOneCopyAtOnceWaitForEachOther() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<CompletableFuture<String>> resets = List.of(1, 2, 3, 4).stream()
                    .map(i -> CompletableFuture.supplyAsync(() -> db.resetCopy("copies-e"), pool)).toList();
            for (CompletableFuture<String> r : resets) {
                assertEquals(ItemCopies.schemaOf("copies-e"), r.get());
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(Seeder.ROWS, db.copyRows("copies-e"));
    }

    /** A load cut off mid-write can leave a pooled connection idle inside its transaction: the reset ends it instead of waiting on it. */
    @Test
    void aTransactionLeftOpenOnTheCopyDoesNotHoldItsReset() throws SQLException {
        String schema = db.resetCopy("copies-f");
        try (Connection left = connect(schema); Connection other = connect(ItemCopies.schemaOf("copies-g"))) {
            db.resetCopy("copies-g");
            left.setAutoCommit(false);
            left.createStatement().executeUpdate("UPDATE item SET name = 'held' WHERE id = 7");
            other.setAutoCommit(false);
            insert(other);
            long from = System.nanoTime();
            db.resetCopy("copies-f");
            assertTrue(System.nanoTime() - from < 20_000_000_000L, "the reset did not wait out its lock timeout");
            try (Connection after = connect(schema)) {
                assertEquals("item-00007", one(after, "SELECT name FROM item WHERE id = 7"));
            }
            assertThrows(SQLException.class, left::commit, "the left session was ended");
            other.commit();
            assertEquals(Seeder.ROWS + 1, db.copyRows("copies-g"), "a transaction open on another copy is left alone");
        }
    }

    @Test
    void countingATargetWithNoCopySaysWhichInOneLine() {
        LabException e = assertThrows(LabException.class, () -> db.copyRows("never-reset"));
        assertTrue(e.getMessage().startsWith("never-reset: cannot count the rows of its copy of table item (schema t_never_reset_"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    private static Connection connect(String schema) throws SQLException {
        Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
        c.setSchema(schema);
        return c;
    }

    private static long insert(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO item (name, price_cents) VALUES ('new', 1) RETURNING id"); ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long count(PreparedStatement s) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
