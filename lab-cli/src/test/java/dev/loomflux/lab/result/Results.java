package dev.loomflux.lab.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.UncheckedIOException;

/** Test records written as results.json writes them, in single quotes for readability: {'status': 'ok', ...}. */
public final class Results {
    private Results() {
    }

    public static Result result(String json) {
        return read(json, Result.class);
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return Json.MAPPER.readValue(json.replace('\'', '"'), type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
