package dev.loomflux.lab.run;

import dev.loomflux.lab.result.Hardware;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The hardware results.json records (result.Hardware), from /proc/cpuinfo, cpu0's caches in sysfs and systemd-detect-virt.
 * It never fails a run: what a machine does not give (another OS, a container without sysfs) stays null.
 */
final class HardwareReader {
    private HardwareReader() {
    }

    static Hardware read() {
        return of(readOrEmpty(Path.of("/proc/cpuinfo")), caches(Path.of("/sys/devices/system/cpu/cpu0/cache")), detectedVm(),
                System.getProperty("os.version"));
    }

    /**
     * The first processor's fields of {@code cpuinfo} (every CPU of a machine is the same model), with its caches, systemd-detect-virt's
     * answer (null when it is not installed) and the kernel's release.
     */
    static Hardware of(String cpuinfo, List<Hardware.Cache> caches, String detectedVm, String kernel) {
        Map<String, String> cpu = firstProcessor(cpuinfo);
        String flags = cpu.get("flags");
        // The hypervisor flag says a hypervisor runs the machine, not which; without systemd-detect-virt that is all that is known.
        String hypervisor = detectedVm != null ? detectedVm : flags == null ? null : words(flags).contains("hypervisor") ? "unknown hypervisor" : "none";
        return new Hardware(cpu.get("vendor_id"), cpu.get("cpu family"), cpu.get("model"), cpu.get("stepping"), cpu.get("microcode"),
                cpu.get("model name"), caches, hypervisor, kernel, flags == null ? null : flagsHash(flags));
    }

    /** "key : value" lines up to the first blank line, keys trimmed ("cpu family"); a blank value is left out. */
    private static Map<String, String> firstProcessor(String cpuinfo) {
        Map<String, String> fields = new HashMap<>();
        for (String line : cpuinfo.split("\n")) {
            if (line.isBlank()) {
                if (!fields.isEmpty()) {
                    break;
                }
                continue;
            }
            int colon = line.indexOf(':');
            String value = colon < 0 ? "" : line.substring(colon + 1).trim();
            if (colon > 0 && !value.isEmpty()) {
                fields.putIfAbsent(line.substring(0, colon).trim(), value);
            }
        }
        return fields;
    }

    /** SHA-256 of the flags sorted and joined by single spaces, its first 16 hex digits: the same set hashes the same in any order. */
    static String flagsHash(String flags) {
        String sorted = String.join(" ", words(flags));
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(sorted.getBytes(StandardCharsets.UTF_8)), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static List<String> words(String flags) {
        return Arrays.stream(flags.trim().split("\\s+")).filter(w -> !w.isEmpty()).distinct().sorted().toList();
    }

    /** Each {@code index*} directory's level, type and size, in index order; one that cannot be read is left out. */
    static List<Hardware.Cache> caches(Path dir) {
        List<Hardware.Cache> out = new ArrayList<>();
        List<Path> indexes;
        try (Stream<Path> s = Files.list(dir)) {
            indexes = s.filter(p -> p.getFileName().toString().matches("index\\d+"))
                    .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().substring("index".length()))))
                    .collect(Collectors.toList());
        } catch (IOException | RuntimeException e) {
            return out;
        }
        for (Path index : indexes) {
            try {
                out.add(new Hardware.Cache(Integer.parseInt(Files.readString(index.resolve("level")).trim()), Files.readString(index.resolve("type")).trim(),
                        Files.readString(index.resolve("size")).trim()));
            } catch (IOException | RuntimeException e) {
                // Left out: the others still describe the CPU.
            }
        }
        return out;
    }

    /** systemd-detect-virt --vm: "kvm", "none" (it exits 1 then); null when it is not installed or says nothing. */
    private static String detectedVm() {
        try {
            Process p = new ProcessBuilder("systemd-detect-virt", "--vm").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroy();
                return null;
            }
            return out.isEmpty() ? null : out.lines().findFirst().orElseThrow();
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
