package dev.loomflux.lab.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ItemCopiesTest {
    @Test
    void aPlainNameIsTheSchemaAfterItsPrefix() {
        assertEquals("t_mvc", ItemCopies.schemaOf("mvc"));
        assertEquals("t_webflux", ItemCopies.schemaOf("webflux"));
        assertEquals("t_mvc_vt", ItemCopies.schemaOf("mvc_vt"));
    }

    @Test
    void namesThatDifferOnlyInPunctuationGetCopiesOfTheirOwn() {
        List<String> schemas = List.of("mvc_vt", "mvc-vt", "mvc.vt", "mvc-vt.2", "mvc.vt-2").stream().map(ItemCopies::schemaOf).toList();
        assertEquals(schemas.size(), schemas.stream().distinct().count(), schemas.toString());
        assertTrue(ItemCopies.schemaOf("mvc-vt").startsWith("t_mvc_vt_"), ItemCopies.schemaOf("mvc-vt"));
        assertEquals(ItemCopies.schemaOf("webflux-vt"), ItemCopies.schemaOf("webflux-vt"));
        assertNotEquals(ItemCopies.schemaOf("webflux-vt"), ItemCopies.schemaOf("mvc-vt"));
    }

    @Test
    void everySchemaIsAPlainIdentifierWithinPostgresqlsLimit() {
        String longest = "a-".repeat(19) + "b.";
        for (String target : List.of("mvc", "mvc-vt", longest, "0-starts-with-a-digit")) {
            String schema = ItemCopies.schemaOf(target);
            assertTrue(schema.matches("t_[a-z0-9_]+") && schema.length() <= 63, target + " -> " + schema);
        }
    }
}
