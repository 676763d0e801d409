package dev.loomflux.lab.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.process.LabProcesses;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cgroup v2 over a folder laid out as the kernel shows a session's group (this machine has cgroup v1
 * only). A small stand-in for the kernel moves pids between cgroup.procs files, fills a new group with
 * its interface files and refuses to remove a group that still has a process.
 */
class CgroupV2Test {
    private static final String PID = Long.toString(ProcessHandle.current().pid());

    @TempDir
    Path root;
    Path own;
    final List<String> writes = new ArrayList<>();
    final LabProcesses processes = new LabProcesses();
    List<String> groupFiles = List.of("cgroup.procs", "cgroup.type", "cpu.max", "cpu.stat", "memory.max", "memory.swap.max",
            "memory.current", "memory.peak", "memory.events");

    final Layout.Fs kernel = new Layout.Fs() {
        @Override
        public void mkdir(Path dir) throws IOException {
            Files.createDirectory(dir);
            for (String f : groupFiles) {
                Files.writeString(dir.resolve(f), "");
            }
        }

        @Override
        public void write(Path file, String value) throws IOException {
            writes.add(root.relativize(file) + " < " + value);
            if (file.getFileName().toString().equals("cgroup.procs")) {
                try (Stream<Path> all = Files.walk(root)) {
                    for (Path procs : all.filter(p -> p.getFileName().toString().equals("cgroup.procs")).toList()) {
                        Files.write(procs, Files.readAllLines(procs).stream().filter(pid -> !pid.equals(value)).toList());
                    }
                }
                Files.writeString(file, value + "\n", StandardOpenOption.APPEND);
            } else {
                // The kernel lists enabled controllers without their '+'.
                Files.writeString(file, file.getFileName().toString().equals("cgroup.subtree_control") ? value.replace("+", "") : value);
            }
        }

        @Override
        public void rmdir(Path dir) throws IOException {
            if (!Files.readString(dir.resolve("cgroup.procs")).isBlank()) {
                throw new FileSystemException(dir.toString(), null, "Device or resource busy");
            }
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    };

    @BeforeEach
    void sessionGroup() throws IOException {
        own = Files.createDirectories(root.resolve("user.slice/user-1000.slice/session-2.scope"));
        Files.writeString(own.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        Files.writeString(own.resolve("cgroup.subtree_control"), "\n");
        Files.writeString(own.resolve("cgroup.type"), "domain\n");
        // The login shell, the lab's parent shell and the lab.
        Files.writeString(own.resolve("cgroup.procs"), "4101\n4102\n" + PID + "\n");
    }

    @AfterEach
    void close() {
        processes.close();
    }

    @Test
    void theLabsGroupMovesItsProcessesToALeafBeforeItHandsCpuAndMemoryToChildGroups() throws IOException {
        Layout v2 = new Layout.V2(own, kernel);
        assertEquals(Optional.empty(), v2.unsupported());
        String session = "user.slice/user-1000.slice/session-2.scope/";
        assertEquals(List.of(
                session + "loomflux-lab/cgroup.procs < 4101",
                session + "loomflux-lab/cgroup.procs < 4102",
                session + "loomflux-lab/cgroup.procs < " + PID,
                session + "cgroup.subtree_control < +cpu +memory"), writes);
        assertEquals(List.of(), Files.readAllLines(own.resolve("cgroup.procs")));
        assertEquals(List.of("4101", "4102", PID), Files.readAllLines(own.resolve("loomflux-lab/cgroup.procs")));
        assertEquals("cpu memory", Files.readString(own.resolve("cgroup.subtree_control")));

        // Once done, asking again changes nothing; nor does a lab started from the moved shell, whose group is the leaf.
        writes.clear();
        assertEquals(Optional.empty(), v2.unsupported());
        Layout later = new Layout.V2(own.resolve("loomflux-lab"), kernel);
        assertEquals(own, ((Layout.V2) later).own());
        assertEquals(Optional.empty(), later.unsupported());
        assertEquals(List.of(), writes);
    }

    @Test
    void theRootGroupMayKeepItsProcessesSoNothingMoves() throws IOException {
        Files.delete(own.resolve("cgroup.type"));
        assertEquals(Optional.empty(), new Layout.V2(own, kernel).unsupported());
        assertEquals(List.of("user.slice/user-1000.slice/session-2.scope/cgroup.subtree_control < +cpu +memory"), writes);
        assertFalse(Files.exists(own.resolve("loomflux-lab")));
    }

    @Test
    void halfACpuAndAGigabyteWithoutSwapAreWrittenAsTheKernelReadsThem() throws IOException {
        try (Cgroup group = Cgroup.create(processes, new Layout.V2(own, kernel), "webflux 0.5", new ResourceLimits(0.5, 1L << 30))) {
            Path dir = own.resolve("loomflux-webflux-0-5-" + PID);
            assertEquals("50000 100000", Files.readString(dir.resolve("cpu.max")));
            assertEquals("1073741824", Files.readString(dir.resolve("memory.max")));
            assertEquals("0", Files.readString(dir.resolve("memory.swap.max")));
            // One group to join, next to the lab's leaf.
            assertEquals(List.of("sh", "-c", "echo $$ > '" + dir.resolve("cgroup.procs") + "' || exit 97; exec \"$@\"", "sh", "java", "-jar", "a.jar"),
                    group.wrap(List.of("java", "-jar", "a.jar")));
            assertEquals(List.of(dir), Cgroup.ofThisLab(new Layout.V2(own, kernel)), "the leaf is not one of the target groups");
        }
    }

    @Test
    void noCpuLimitIsMaxAndWithoutSwapAccountingNoSwapLimitIsWritten() throws IOException {
        groupFiles = List.of("cgroup.procs", "cpu.max", "memory.max");
        try (Cgroup group = Cgroup.create(processes, new Layout.V2(own, kernel), "mvc", new ResourceLimits(0, 48L << 20))) {
            Path dir = own.resolve("loomflux-mvc-" + PID);
            assertEquals("max 100000", Files.readString(dir.resolve("cpu.max")));
            assertEquals("50331648", Files.readString(dir.resolve("memory.max")));
            assertFalse(Files.exists(dir.resolve("memory.swap.max")));
        }
        try (Cgroup group = Cgroup.create(processes, new Layout.V2(own, kernel), "mvc", new ResourceLimits(1.5, 0))) {
            assertEquals("150000 100000", Files.readString(own.resolve("loomflux-mvc-" + PID + "/cpu.max")));
            assertEquals("", Files.readString(own.resolve("loomflux-mvc-" + PID + "/memory.max")), "no memory limit: untouched");
        }
    }

    @Test
    void usageReadsTheKernelsMicrosecondsAsNanosecondsAndTheOomKill() throws IOException {
        try (Cgroup group = Cgroup.create(processes, new Layout.V2(own, kernel), "mvc", new ResourceLimits(0.5, 1L << 30))) {
            Path dir = own.resolve("loomflux-mvc-" + PID);
            Files.writeString(dir.resolve("cpu.stat"), """
                    usage_usec 8000000
                    user_usec 6000000
                    system_usec 2000000
                    nr_periods 200
                    nr_throttled 150
                    throttled_usec 4000000
                    """);
            Files.writeString(dir.resolve("memory.current"), "268435456\n");
            Files.writeString(dir.resolve("memory.peak"), "402653184\n");
            Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n");
            Cgroup.Usage u = group.usage();
            assertEquals(8_000_000_000L, u.cpuNanos());
            assertEquals(200, u.periods());
            assertEquals(150, u.throttledPeriods());
            assertEquals(4_000_000_000L, u.throttledNanos());
            assertEquals(256L << 20, u.memoryBytes());
            assertEquals(384L << 20, u.peakMemoryBytes());
            assertEquals(1, u.oomKills());
            Cgroup.Change c = u.since(new Cgroup.Usage(u.atNanos() - 10_000_000_000L, 0, 0, 0, 0, 0, 0, 0));
            assertEquals(80.0, c.cpuPct(), 1e-9);
            assertEquals(75.0, c.throttledPct(), 1e-9);
            assertEquals(4.0, c.throttledSeconds(), 1e-9);
            assertEquals(Optional.of("killed by its memory limit of 1024 MB"), group.oomCause());
            // Before Linux 5.19 there is no memory.peak.
            Files.delete(dir.resolve("memory.peak"));
            assertEquals(0, group.usage().peakMemoryBytes());
        }
    }

    @Test
    void closeMovesAProcessStillInsideToTheLeafAndLeavesTheLeaf() throws IOException {
        Layout v2 = new Layout.V2(own, kernel);
        Cgroup group = Cgroup.create(processes, v2, "mvc", new ResourceLimits(1, 0));
        Path dir = own.resolve("loomflux-mvc-" + PID);
        Files.writeString(dir.resolve("cgroup.procs"), "4711\n");
        writes.clear();
        group.close();
        assertEquals(List.of("user.slice/user-1000.slice/session-2.scope/loomflux-lab/cgroup.procs < 4711"), writes);
        assertFalse(Files.exists(dir));
        assertEquals(List.of("4101", "4102", PID, "4711"), Files.readAllLines(own.resolve("loomflux-lab/cgroup.procs")));
        assertEquals(List.of(), Cgroup.ofThisLab(v2));
    }

    @Test
    void aGroupLeftOpenGoesWhenTheLabThatMadeItEnds() throws IOException {
        Layout v2 = new Layout.V2(own, kernel);
        Cgroup.create(processes, v2, "mvc", new ResourceLimits(1, 0));
        Path dir = own.resolve("loomflux-mvc-" + PID);
        assertTrue(Files.isDirectory(dir));
        processes.close();
        assertFalse(Files.exists(dir));
        assertEquals(List.of(), Cgroup.ofThisLab(v2));
    }

    @Test
    void aRefusedWriteSaysWhichFileAndTheLabRunsUnlimited() throws IOException {
        // A file that cannot be written, even by root: a folder in its place.
        Files.delete(own.resolve("cgroup.subtree_control"));
        Files.createDirectory(own.resolve("cgroup.subtree_control"));
        Layout v2 = new Layout.V2(own, kernel);
        String reason = "cgroup v2: cannot write to " + own.resolve("cgroup.subtree_control")
                + ": Is a directory (needed to give child groups cpu and memory limits)";
        assertEquals(Optional.of(reason), v2.unsupported());
        LabException e = assertThrows(LabException.class, () -> Cgroup.create(processes, v2, "mvc", new ResourceLimits(1, 0)));
        assertEquals("--cpus/--memory: " + reason, e.getMessage());

        // A process the lab may not move (another user's): EACCES, and the lab itself is alive.
        Files.writeString(own.resolve("cgroup.procs"), PID + "\n");
        Layout.Fs refusing = new Layout.Fs() {
            @Override
            public void write(Path file, String value) throws IOException {
                throw new AccessDeniedException(file.toString());
            }
        };
        assertEquals(Optional.of("cgroup v2: cannot write to " + own.resolve("loomflux-lab/cgroup.procs")
                + ": permission denied (needed to give child groups cpu and memory limits)"), new Layout.V2(own, refusing).unsupported());

        Files.writeString(own.resolve("cgroup.controllers"), "cpuset io pids\n");
        assertEquals(Optional.of("cgroup v2: no cpu controller in " + own.resolve("cgroup.controllers") + " (cpuset io pids)"), v2.unsupported());
    }

    @Test
    void aPureV2MachineUsesTheUnifiedHierarchyAtTheLabsGroup() {
        Hierarchies h = Hierarchies.parse(
                List.of("sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0",
                        "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot 0 0"),
                List.of("0::/user.slice/user-1000.slice/session-2.scope"));
        assertTrue(h.v2());
        assertTrue(h.ownDir("cpu").isEmpty());
        Path session = Path.of("/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope");
        assertEquals(Optional.of(session), h.unifiedDir());
        Layout layout = Layout.of(h);
        assertEquals(new Layout.V2(session, Layout.Fs.REAL), layout);
        assertEquals("cgroup v2: cpu.max per 100 ms period, memory.max without swap", layout.mechanism());
        // In a container with its own cgroup namespace the lab's group reads as the root.
        assertEquals(Optional.of(Path.of("/sys/fs/cgroup")),
                Hierarchies.parse(List.of("cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime 0 0"), List.of("0::/")).unifiedDir());
    }

    @Test
    void aHybridMachineWithV1CpuAndMemoryKeepsV1() {
        // This machine: every v1 controller mounted, and an empty unified hierarchy beside them.
        Hierarchies h = Hierarchies.parse(List.of(
                "tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0",
                "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0",
                "cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0",
                "cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0",
                "cgroup /sys/fs/cgroup/systemd cgroup rw,relatime,name=systemd 0 0",
                "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0"), List.of(
                "9:name=systemd:/",
                "4:memory:/process_api/2ec6",
                "2:cpuacct:/",
                "1:cpu:/",
                "0::/"));
        Layout layout = Layout.of(h);
        assertInstanceOf(Layout.V1.class, layout);
        assertEquals("cgroup v1: cpu.cfs_quota_us per 100 ms period, memory.limit_in_bytes without swap", layout.mechanism());
        assertEquals(List.of(Path.of("/sys/fs/cgroup/cpu"), Path.of("/sys/fs/cgroup/cpuacct"), Path.of("/sys/fs/cgroup/memory/process_api/2ec6")),
                List.copyOf(layout.parents().values()));
        assertEquals(Optional.of(Path.of("/sys/fs/cgroup/unified")), h.unifiedDir());
    }
}
