package dev.loomflux.targets;

import java.util.List;

/** Response bodies shared by every target, so the same request gets the same bytes everywhere. */
public final class Api {
    public static final String PLAINTEXT = "Hello, World!";

    private Api() {
    }

    public record Message(String message) {
        public static final Message HELLO = new Message(PLAINTEXT);
    }

    public record Item(long id, String name, long priceCents) {
    }

    public record ItemsPage(int page, int size, List<Item> items) {
    }

    public record Chain(int depth, int delay, List<String> responses) {
    }

    /** /mixed: what /cpu, /items and /gateway answer, done in that order in one request. */
    public record Mixed(String digest, ItemsPage items, String downstream) {
    }

    /** Rows come back in id order; offset is computed in long to rule out overflow at the caps. */
    public static final String ITEMS_SQL = "SELECT id, name, price_cents FROM item ORDER BY id LIMIT $1 OFFSET $2";
    public static final String ITEMS_SQL_JDBC = "SELECT id, name, price_cents FROM item ORDER BY id LIMIT ? OFFSET ?";

    /*
     * The writes of POST, PUT and DELETE /items/{id} and the read of GET /items/{id}, each a single
     * statement that the target runs in a transaction of its own. New ids come from the table's identity,
     * which starts above the seeded rows (lab-cli db/ItemCopies).
     */
    public static final String ITEM_SQL = "SELECT id, name, price_cents FROM item WHERE id = $1";
    public static final String ITEM_SQL_JDBC = "SELECT id, name, price_cents FROM item WHERE id = ?";
    public static final String INSERT_SQL = "INSERT INTO item (name, price_cents) VALUES ($1, $2) RETURNING id, name, price_cents";
    public static final String INSERT_SQL_JDBC = "INSERT INTO item (name, price_cents) VALUES (?, ?) RETURNING id, name, price_cents";
    public static final String UPDATE_SQL = "UPDATE item SET name = $1, price_cents = $2 WHERE id = $3 RETURNING id, name, price_cents";
    public static final String UPDATE_SQL_JDBC = "UPDATE item SET name = ?, price_cents = ? WHERE id = ? RETURNING id, name, price_cents";
    public static final String DELETE_SQL = "DELETE FROM item WHERE id = $1";
    public static final String DELETE_SQL_JDBC = "DELETE FROM item WHERE id = ?";

    /** Where POST /items answers that the new item is. */
    public static String location(long id) {
        return "/items/" + id;
    }

    public static long offset(int page, int size) {
        return (long) page * size;
    }
}
