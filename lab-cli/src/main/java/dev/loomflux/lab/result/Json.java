package dev.loomflux.lab.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * The one mapper between results.json and its records: snake_case names, fields that do not apply
 * left out, and fields a newer lab added ignored, so an older lab still reads a newer file.
 */
public final class Json {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private Json() {
    }

    /** JSON of the lab's own making, such as a target's /config, as a record; fields this lab does not know are ignored. */
    public static <T> T read(String json, Class<T> type) throws IOException {
        return MAPPER.readValue(json, type);
    }

    /** A record as one line of JSON, for a file of JSON Lines (one record per line, appended to). */
    public static String line(Object value) throws IOException {
        return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
    }

    /** A record as a tree, for the report's generic "key value" cells. */
    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }
}
