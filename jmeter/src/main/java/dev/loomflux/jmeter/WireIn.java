package dev.loomflux.jmeter;

import java.io.DataInput;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The reading side of {@link WireOut}: the same varints, and strings resolved against the table as it grows. */
final class WireIn {
    private final DataInput in;
    private final List<String> table = new ArrayList<>();

    WireIn(DataInput in) {
        this.in = in;
    }

    long unsigned() throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.readByte();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new StreamCorruptedException("a varint longer than 64 bits");
    }

    long signed() throws IOException {
        long u = unsigned();
        return (u >>> 1) ^ -(u & 1);
    }

    /** An unsigned number that must fit an int (a count, a thread count). */
    int count() throws IOException {
        long u = unsigned();
        if (u > Integer.MAX_VALUE) {
            throw new StreamCorruptedException("a count of " + u);
        }
        return (int) u;
    }

    String string() throws IOException {
        long ref = unsigned();
        if (ref == WireOut.NULL) {
            return null;
        }
        if (ref == WireOut.NEW) {
            byte[] utf8 = new byte[count()];
            in.readFully(utf8);
            String s = new String(utf8, StandardCharsets.UTF_8);
            table.add(s);
            return s;
        }
        long index = ref - WireOut.FIRST_INDEX;
        if (index >= table.size()) {
            throw new StreamCorruptedException("string " + index + " of a table of " + table.size());
        }
        return table.get((int) index);
    }
}
