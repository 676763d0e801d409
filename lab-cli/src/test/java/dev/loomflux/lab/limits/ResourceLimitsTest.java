package dev.loomflux.lab.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.UsageException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResourceLimitsTest {
    @Test
    void sizesReadAsAContainerRuntimeWrites() {
        assertEquals(1L << 30, ResourceLimits.parseMemory("1g", "--memory"));
        assertEquals(512L << 20, ResourceLimits.parseMemory("512M", "--memory"));
        assertEquals(1536L << 20, ResourceLimits.parseMemory("1.5g", "--memory"));
        assertEquals(123456789L, ResourceLimits.parseMemory("123456789", "--memory"));
        UsageException e = assertThrows(UsageException.class, () -> ResourceLimits.parseMemory("lots", "--memory"));
        assertEquals("--memory lots: expected a size such as 512m or 1g", e.getMessage());
        assertThrows(UsageException.class, () -> new ResourceLimits(-1, 0));
        assertThrows(UsageException.class, () -> new ResourceLimits(0, 1 << 20));
    }

    @Test
    void theJvmSeesTheQuotaRoundedUpWithinItsCpuSet() {
        assertEquals(1, new ResourceLimits(0.5, 0).visibleProcessors(4));
        assertEquals(2, new ResourceLimits(1.5, 0).visibleProcessors(4));
        assertEquals(2, new ResourceLimits(3, 0).visibleProcessors(2));
        assertEquals(4, ResourceLimits.NONE.visibleProcessors(4));
    }

    @Test
    void hierarchiesNestUnderTheLabsOwnGroups() {
        Hierarchies h = Hierarchies.parse(List.of(
                "tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0",
                "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0",
                "cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0",
                "cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0",
                "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0"), List.of(
                "4:memory:/process_api/2ec6",
                "2:cpuacct:/",
                "1:cpu:/",
                "0::/"));
        assertEquals(Path.of("/sys/fs/cgroup/memory/process_api/2ec6"), h.ownDir("memory").orElseThrow());
        assertEquals(Path.of("/sys/fs/cgroup/cpu"), h.ownDir("cpu").orElseThrow());
        assertEquals(true, h.v2());
        Hierarchies combined = Hierarchies.parse(List.of("cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0"),
                List.of("3:cpu,cpuacct:/user.slice"));
        assertEquals(Path.of("/sys/fs/cgroup/cpu,cpuacct/user.slice"), combined.ownDir("cpuacct").orElseThrow());
        assertEquals(true, Hierarchies.parse(List.of("cgroup2 /sys/fs/cgroup cgroup2 rw 0 0"), List.of("0::/")).ownDir("cpu").isEmpty());
    }
}
