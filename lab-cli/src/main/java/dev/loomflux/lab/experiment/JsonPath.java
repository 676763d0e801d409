package dev.loomflux.lab.experiment;

import java.util.regex.Pattern;

/**
 * The JSON paths a step can extract a value with: {@code $}, then fields ({@code .id}) and array
 * indexes ({@code [0]}), e.g. {@code $.id} or {@code $.items[0].id}. JMeter's JSON Extractor reads
 * them as they are (JSONPath, RFC 9535); Hyperfoil's {@code json} handler reads the same path without
 * the {@code $}. Wildcards, filters and recursive descent are refused: Hyperfoil has none of them.
 */
public final class JsonPath {
    private static final Pattern PATH = Pattern.compile("\\$(\\.[A-Za-z_][A-Za-z0-9_-]*|\\[[0-9]{1,6}])+");

    private JsonPath() {
    }

    public static boolean valid(String path) {
        return PATH.matcher(path).matches();
    }
}
