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

    public static long offset(int page, int size) {
        return (long) page * size;
    }
}
