package dev.loomflux.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.sut.TargetSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentOrderTest {
    private final Experiment example = ExperimentReader.read(Path.of(System.getProperty("loomflux.home"), "experiments/example.yaml"), Drivers.ALL);

    @Test
    void oddRepeatsRunForwardAndEvenOnesBackward() {
        assertEquals(List.of("mvc", "mvc-vt", "webflux", "mvc-10"), names(example.order(1)));
        assertEquals(List.of("mvc-10", "webflux", "mvc-vt", "mvc"), names(example.order(2)));
        assertEquals(names(example.order(1)), names(example.order(3)));
    }

    @Test
    void aLinearDriftGivesEveryTargetTheSameMeanPositionOverPairsOfRepeats() {
        // A machine slowing down by one unit per measurement: every target's mean slot must be equal,
        // where A B C D A B C D would put D 3 slots (3 units of drift) behind A.
        Map<String, List<Integer>> slots = new HashMap<>();
        int slot = 0;
        for (int repeat = 1; repeat <= 4; repeat++) {
            for (String name : names(example.order(repeat))) {
                slots.computeIfAbsent(name, k -> new ArrayList<>()).add(slot++);
            }
        }
        for (List<Integer> s : slots.values()) {
            assertEquals(7.5, s.stream().mapToInt(Integer::intValue).average().orElseThrow(), 1e-9, slots.toString());
        }
    }

    private static List<String> names(List<TargetSpec> targets) {
        return targets.stream().map(TargetSpec::name).toList();
    }
}
