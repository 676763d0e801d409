package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The records of results.json group their fields into parts that the file does not show: Jackson (2.20) writes a record's
 * {@code @JsonUnwrapped} component's fields in its place, in order, and reads them back through the record's constructor.
 */
class UnwrappedPartsTest {
    record Part(long requests, Double p50Ms) {
    }

    record Other(List<Double> ci, Integer roundsToSettle) {
    }

    record Whole(String name, @JsonUnwrapped Part part, int round, @JsonUnwrapped Other other) {
    }

    @Test
    void aPartsFieldsAreWrittenFlatInItsPlaceAndReadBack() throws IOException {
        Whole w = new Whole("a", new Part(10, 1.5), 3, new Other(List.of(0.9, 1.1), null));
        JsonNode tree = Json.tree(w);
        assertEquals("{\"name\":\"a\",\"requests\":10,\"p50_ms\":1.5,\"round\":3,\"ci\":[0.9,1.1]}", tree.toString());
        assertEquals(w, Json.MAPPER.treeToValue(tree, Whole.class));
    }

    @Test
    void anAbsentPartIsReadAsARecordOfItsDefaults() throws IOException {
        assertEquals(new Whole("a", new Part(0, null), 0, new Other(null, null)), Json.read("{\"name\": \"a\"}", Whole.class));
    }
}
