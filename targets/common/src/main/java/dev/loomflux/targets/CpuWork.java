package dev.loomflux.targets;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Deterministic CPU-bound work: SHA-256 applied {@code rounds} times to a fixed seed. */
public final class CpuWork {
    private static final byte[] SEED = "loomflux".getBytes(StandardCharsets.US_ASCII);
    /**
     * A deliberate slowdown: this much more work per request, in % (-Dloomflux.cpu.extra-work-pct=20). A build known to be
     * slower, for the regression gate's tests and its worked example (docs/ci.md); 0 unless set.
     */
    private static final int EXTRA_WORK_PCT = Integer.getInteger("loomflux.cpu.extra-work-pct", 0);

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
        long n = rounds + (long) rounds * EXTRA_WORK_PCT / 100;
        for (long i = 0; i < n; i++) {
            value = sha.digest(value);
        }
        return HexFormat.of().formatHex(value);
    }
}
