package dev.loomflux.lab.paired;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import dev.loomflux.lab.result.BlockRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeakRecoveryTest {
    /** 0 to 1,000 users over 20 s, back to 0 over 5 s: a quarter of the peak at 5 s, the peak's end at 20 s. */
    private static final LoadProfile SPIKE = new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(20), 1000),
            new LoadProfile.Stage(Duration.ofSeconds(5), 0)), Think.NONE);

    /** Seconds from 0 with these p99s (NaN: no response in it). */
    private static List<Second> seconds(double... p99) {
        List<Second> out = new ArrayList<>();
        for (int t = 0; t < p99.length; t++) {
            boolean answered = !Double.isNaN(p99[t]);
            out.add(new Second(t, 100, answered ? 100 : 0, answered ? 100 : 0, p99[t] / 2, p99[t], 0, 0, -1));
        }
        return out;
    }

    private static double[] spike(double... afterPeak) {
        double[] p99 = new double[20 + afterPeak.length];
        double[] light = {90, 100, 110, 120, 130};
        for (int t = 0; t < 20; t++) {
            p99[t] = t < 5 ? light[t] : 1000; // from 5 s on, past a quarter of the peak: not light
        }
        System.arraycopy(afterPeak, 0, p99, 20, afterPeak.length);
        return p99;
    }

    @Test
    void recoversAtTheFirstSecondAfterThePeakFromWhichEveryOneStaysWithinTwiceItsLightLoadP99() {
        // light load: the median of 90..130 = 110, so within 220 ms; 22 s is the first second from which all stay under it
        assertEquals(new BlockRecord.Recovery(110, 20, 2.0), PeakRecovery.of(SPIKE, seconds(spike(900, 400, 200, 150, Double.NaN))));
        // under it at 21 s, over again at 22 s: recovered only from 23 s
        assertEquals(new BlockRecord.Recovery(110, 20, 3.0), PeakRecovery.of(SPIKE, seconds(spike(900, 150, 300, 150, 120))));
        assertEquals(0.0, PeakRecovery.of(SPIKE, seconds(spike(150, 120))).afterS(), "within at once");
    }

    @Test
    void notRecoveredWithinTheBlockIsNoFigureAndAShapeItCannotJudgeIsNone() {
        BlockRecord.Recovery never = PeakRecovery.of(SPIKE, seconds(spike(900, 400, 300, 150, 250)));
        assertEquals(110, never.lightP99Ms());
        assertNull(never.afterS(), "the last second answered was still over twice the light load's p99");
        assertNull(PeakRecovery.of(SPIKE, seconds(spike())), "no second after the peak");
        assertNull(PeakRecovery.of(new LoadProfile.Fixed(100, Duration.ofSeconds(30), Think.NONE), seconds(spike(150))), "no peak in a fixed load");
        LoadProfile atOnce = new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ZERO, 1000), new LoadProfile.Stage(Duration.ofSeconds(20), 1000),
                new LoadProfile.Stage(Duration.ofSeconds(5), 0)), Think.NONE);
        assertNull(PeakRecovery.of(atOnce, seconds(spike(150))), "no second under light load before the peak");
    }

    @Test
    void aRampFromAFewUsersPassesAQuarterOfThePeakWhereItsLineDoes() {
        // 0 -> 40 users over 10 s, then 40 -> 200 over 10 s: a quarter of 200 (50) at 10 + 10 x 10/160 = 10.625 s, so seconds 0-9
        LoadProfile steps = new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(10), 40), new LoadProfile.Stage(Duration.ofSeconds(10), 200),
                new LoadProfile.Stage(Duration.ofSeconds(5), 0)), Think.NONE);
        double[] p99 = new double[22];
        for (int t = 0; t < p99.length; t++) {
            p99[t] = t < 10 ? 100 : t == 10 ? 10_000 : t < 20 ? 1000 : 150;
        }
        assertEquals(new BlockRecord.Recovery(100, 20, 0.0), PeakRecovery.of(steps, seconds(p99)));
    }

    @Test
    void aHoldAtTheMostUsersIsPartOfThePeak() {
        // 0 -> 400 users over 8 s, 2 s held, down to 40 over 2 s: the peak ends at 10 s, where the load first falls
        LoadProfile held = new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(8), 400), new LoadProfile.Stage(Duration.ofSeconds(2), 400),
                new LoadProfile.Stage(Duration.ofSeconds(2), 40)), Think.NONE);
        assertEquals(new BlockRecord.Recovery(100, 10, 1.0), PeakRecovery.of(held, seconds(100, 100, 900, 900, 900, 900, 900, 900, 900, 900, 900, 150)));
    }
}
