package dev.loomflux.lab.cpuprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollapsedStacksTest {
    @TempDir
    Path dir;

    @Test
    void oneSortedLinePerStackWithItsCountAfterTheLastSpace() throws Exception {
        CollapsedStacks stacks = new CollapsedStacks(new TreeMap<>(Map.of("main;b", 2L, "main;a;leaf", 5L, "main", 1L)));
        assertEquals("main 1\nmain;a;leaf 5\nmain;b 2\n", stacks.format());
        assertEquals(8, stacks.samples());
        Path file = dir.resolve("out.collapsed");
        stacks.write(file);
        assertEquals(stacks, CollapsedStacks.read(file));
    }

    @Test
    void anotherToolsFileAddsUpARepeatedStackAndSkipsBlankLines() {
        CollapsedStacks stacks = CollapsedStacks.parse("a;b 3\r\n\na;b 4\nframe with space;c 1\n", "x.collapsed");
        assertEquals(Map.of("a;b", 7L, "frame with space;c", 1L), stacks.counts());
    }

    @Test
    void aLineWithoutAPositiveWholeCountIsRefusedNamingFileAndLine() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.collapsed"), "a;b 3\na;c three\n");
        String message = assertThrows(UsageException.class, () -> CollapsedStacks.read(file)).getMessage();
        assertEquals(file + ": line 2: expected 'frame;frame;... COUNT' with COUNT a whole number above 0, got 'a;c three'", message);
        assertThrows(UsageException.class, () -> CollapsedStacks.parse("a;b 0\n", "zero"));
        assertThrows(UsageException.class, () -> CollapsedStacks.parse("7\n", "no stack"));
    }
}
