package dev.loomflux.lab.telemetry;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The long counters a HotSpot JVM publishes in its hsperfdata file ({@code /tmp/hsperfdata_<user>/<pid>},
 * what {@code jstat} reads), read without attaching to the JVM and without a JDK-internal API. It works
 * for every HotSpot target, a bring-your-own command included, unless it runs with -XX:-UsePerfData.
 *
 * <p>Layout (HotSpot perfMemory.hpp): a prologue with magic 0xcafec0c0 (big endian), the byte order of
 * the rest, the offset and count of the entries; each entry has its length, name offset, vector length,
 * type ('J' = long) and data offset.
 */
public final class HsPerfData {
    private static final int MAGIC = 0xcafec0c0;

    private HsPerfData() {
    }

    /** The hsperfdata file of a JVM, the process itself or a descendant (a wrapper script's java), if any. */
    public static Optional<Path> fileOf(long pid) {
        List<Path> dirs = Stream.of("/tmp", System.getProperty("java.io.tmpdir"))
                .map(d -> Path.of(d, "hsperfdata_" + System.getProperty("user.name"))).distinct().toList();
        Stream<Long> pids = Stream.concat(Stream.of(pid),
                ProcessHandle.of(pid).map(p -> p.descendants().map(ProcessHandle::pid)).orElse(Stream.empty()));
        return pids.flatMap(p -> dirs.stream().map(d -> d.resolve(Long.toString(p)))).filter(Files::isReadable).findFirst();
    }

    /** Every scalar long counter by name; empty when the file is not (or no longer) an hsperfdata file. */
    public static Map<String, Long> read(Path file) throws IOException {
        return parse(ByteBuffer.wrap(Files.readAllBytes(file)));
    }

    static Map<String, Long> parse(ByteBuffer b) {
        Map<String, Long> counters = new HashMap<>();
        if (b.limit() < 32 || b.order(ByteOrder.BIG_ENDIAN).getInt(0) != MAGIC) {
            return counters;
        }
        b.order(b.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int entry = b.getInt(24);
        int entries = b.getInt(28);
        for (int i = 0; i < entries && entry > 0 && entry + 20 <= b.limit(); i++) {
            int length = b.getInt(entry);
            if (length <= 0) {
                break;
            }
            int vector = b.getInt(entry + 8);
            int data = entry + b.getInt(entry + 16);
            if (vector == 0 && b.get(entry + 12) == 'J' && data + 8 <= b.limit()) {
                counters.put(cString(b, entry + b.getInt(entry + 4)), b.getLong(data));
            }
            entry += length;
        }
        return counters;
    }

    private static String cString(ByteBuffer b, int at) {
        int end = at;
        while (end < b.limit() && b.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - at];
        b.get(at, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
