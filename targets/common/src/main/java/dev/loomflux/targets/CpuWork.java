package dev.loomflux.targets;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Deterministic CPU-bound work: SHA-256 applied {@code rounds} times to a fixed seed. */
public final class CpuWork {
    private static final byte[] SEED = "loomflux".getBytes(StandardCharsets.US_ASCII);

    private CpuWork() {
    }

    public static String digest(int rounds) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK ships SHA-256", e);
        }
        byte[] value = SEED;
        for (int i = 0; i < rounds; i++) {
            value = sha.digest(value);
        }
        return HexFormat.of().formatHex(value);
    }
}
