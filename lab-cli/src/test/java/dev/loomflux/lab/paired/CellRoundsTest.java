package dev.loomflux.lab.paired;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CellRoundsTest {
    private record Jvm(String target, int set) {
    }

    /** The first of each set's compile stages goes to another target in the next set: no target is first in every set. */
    @Test
    void theCompileStagesAlternateTheirOrderFromSetToSet() {
        List<Jvm> started = List.of(new Jvm("mvc", 1), new Jvm("mvc2", 1), new Jvm("webflux", 1), new Jvm("mvc", 2), new Jvm("mvc2", 2),
                new Jvm("webflux", 2), new Jvm("mvc", 3), new Jvm("mvc2", 3), new Jvm("webflux", 3));
        assertEquals(List.of(new Jvm("mvc", 1), new Jvm("mvc2", 1), new Jvm("webflux", 1), new Jvm("webflux", 2), new Jvm("mvc2", 2),
                new Jvm("mvc", 2), new Jvm("mvc", 3), new Jvm("mvc2", 3), new Jvm("webflux", 3)), CellRounds.compileOrder(started, Jvm::set));
        assertEquals(List.of(new Jvm("mvc", 1), new Jvm("mvc2", 1)), CellRounds.compileOrder(List.of(new Jvm("mvc", 1), new Jvm("mvc2", 1)), Jvm::set));
    }
}
