package dev.loomflux.lab.result;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The CPU a run was measured on, as the kernel describes it. A model name alone does not name a machine
 * ("AMD EPYC" covers generations), a VM may move to another host's CPU between sessions, and the ratios between targets
 * move with the machine (docs/reproducibility.md, "Hardware named in every result"). Family, model, stepping and microcode
 * are kept as /proc/cpuinfo writes them (stepping may read "unknown"); a field the machine does not give is null.
 *
 * @param flagsHash the first 16 hex digits of the SHA-256 of the CPU's flags, sorted and joined by spaces: two CPUs
 *                  with one flag apart (an instruction set, a mitigation) hash differently
 * @param hypervisor what runs the machine: systemd-detect-virt's answer ("kvm", "none"), else "unknown hypervisor"
 *                   when the CPU carries the hypervisor flag, "none" when it does not
 * @param kernel     the kernel's release (uname -r)
 */
public record Hardware(String vendor, String family, String model, String stepping, String microcode, String modelName, List<Cache> caches,
                       String hypervisor, String kernel, String flagsHash) {
    /** One cache of the first CPU, as /sys/devices/system/cpu/cpu0/cache/index* describes it: level 1, type "Data", size "48K". */
    public record Cache(int level, String type, String size) {
        /** "L1d 48K", "L1i 32K", "L2 2048K". */
        String described() {
            String kind = "Data".equals(type) ? "d" : "Instruction".equals(type) ? "i" : "";
            return "L" + level + kind + " " + size;
        }
    }

    public Hardware {
        caches = caches == null ? List.of() : List.copyOf(caches);
    }

    /** "L1d 48K, L1i 32K, L2 2048K, L3 307200K"; null when none was read. */
    public String cachesDescribed() {
        return caches.isEmpty() ? null : caches.stream().map(Cache::described).collect(Collectors.joining(", "));
    }
}
