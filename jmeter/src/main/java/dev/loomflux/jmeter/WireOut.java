package dev.loomflux.jmeter;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The writing side of a batch's compact encoding. Numbers are varints (7 bits a byte, low bits first), signed ones
 * zigzag-encoded first so that small negatives stay short. A string is written in full the first time the batch meets
 * it and as its index in the batch's table afterwards: labels, thread names, codes, messages and URLs repeat from one
 * sample to the next, so most of them cost a byte or two.
 */
final class WireOut {
    /** A string reference: 0 is null, 1 a new string (its UTF-8 length and bytes follow), n >= 2 the table's entry n - 2. */
    static final int NULL = 0;
    static final int NEW = 1;
    static final int FIRST_INDEX = 2;

    private final DataOutput out;
    private final Map<String, Integer> table = new HashMap<>();

    WireOut(DataOutput out) {
        this.out = out;
    }

    void unsigned(long value) throws IOException {
        long v = value;
        while ((v & ~0x7FL) != 0) {
            out.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }

    void signed(long value) throws IOException {
        unsigned((value << 1) ^ (value >> 63));
    }

    void string(String s) throws IOException {
        if (s == null) {
            unsigned(NULL);
            return;
        }
        Integer index = table.get(s);
        if (index != null) {
            unsigned(FIRST_INDEX + (long) index);
            return;
        }
        table.put(s, table.size());
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        unsigned(NEW);
        unsigned(utf8.length);
        out.write(utf8);
    }
}
