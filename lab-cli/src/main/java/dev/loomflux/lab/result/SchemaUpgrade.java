package dev.loomflux.lab.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An older results.json, as a tree, rewritten to the schema this lab writes before it is read into the records, so the
 * records know the current names only. One step per schema that renamed a field, each applied to the files from before
 * it; the schema history (docs/results-schema.md) says the same of each.
 */
final class SchemaUpgrade {
    private SchemaUpgrade() {
    }

    /** The same tree, edited in place, in the current schema's names. */
    static JsonNode toCurrent(JsonNode tree) {
        int schema = tree.path("schema").asInt(1);
        if (schema <= 8) {
            // Schema 9: the driver's plan file is "plan", whichever driver wrote it.
            tree.path("results").forEach(r -> renamed(r, "hyperfoil_yaml", "plan"));
        }
        if (schema <= 10) {
            // Schema 11: the sweep's RSS growth per 1,000 users is named after users, by which it always divided.
            tree.path("sweep").path("cells").forEach(cell -> {
                cell.path("targets").forEach(t -> renamed(t.path("metrics"), "rss_mb_per_1000_connections", "rss_mb_per_1000_users"));
                cell.path("winners").forEach(w -> {
                    if (w.path("metric").asText().equals("rss_mb_per_1000_connections")) {
                        ((ObjectNode) w).put("metric", "rss_mb_per_1000_users");
                    }
                });
            });
        }
        if (schema <= 11) {
            // Schema 12: one word per meaning. The mean requests in flight of a block, the rate's most requests in flight, and
            // a paired run's JVMs, which it counts and numbers as sets where schema 11 wrote them as repeats.
            tree.path("blocks").forEach(b -> renamed(b, "little_users", "in_flight"));
            renamed(tree.path("experiment").path("profile"), "max_users", "max_in_flight");
            if (tree.path("experiment").path("design").path("kind").asText().equals("paired")) {
                renamed(tree.path("experiment"), "repeat", "sets");
                tree.path("results").forEach(r -> renamed(r, "repeat", "set"));
            }
        }
        return tree;
    }

    private static void renamed(JsonNode node, String old, String now) {
        if (node instanceof ObjectNode o && o.has(old)) {
            o.set(now, o.remove(old));
        }
    }
}
