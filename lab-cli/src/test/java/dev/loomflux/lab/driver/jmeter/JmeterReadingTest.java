package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.Second;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loomflux.lab.experiment.LoadProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the listener hears of JMeter's results file, which holds a request only once it has ended. */
class JmeterReadingTest {
    private static final long T0 = 1_800_000_000_000L;

    private static final PhasePlan PLAN = PhasePlan.of(new LoadProfile.Fixed(2, Duration.ofSeconds(10)), 1);
    private final List<Second> live = new ArrayList<>();
    private final JmeterReading reading = new JmeterReading(PLAN, null, live::add, null, 10_000, List.of());

    private static Jtl.Sample sent(long atMs, long tookMs) {
        return sent(atMs, tookMs, false);
    }

    private static Jtl.Sample answered(long atMs, String status) {
        return new Jtl.Sample(T0 + atMs, 5, status, false, "fixed 1-1", 100, 100, 2, 1, "", "request", "", false);
    }

    private static Jtl.Sample sent(long atMs, long tookMs, boolean closed) {
        return new Jtl.Sample(T0 + atMs, tookMs, "200", true, "fixed 1-1", 100, 100, 2, 1, "", "request", "", closed);
    }

    @Test
    void aResponseThatClosedItsConnectionIsAReconnectionNotAnError() {
        reading.add(List.of(sent(0, 5), sent(10, 5, true), sent(1_200, 5), sent(1_300, 5, true), sent(1_400, 5, true)), T0 + 2_000);
        Measurement m = reading.finish(T0 + 2_000, null);
        assertEquals(5, m.responses());
        assertEquals(3, m.reconnections());
        assertEquals(0, m.errors().total(), m.errors().toString());
    }

    @Test
    void aResponseOfFourOrFiveHundredIsAnErrorOfItsClass() {
        reading.add(List.of(sent(0, 5), answered(10, "404"), answered(20, "503"), answered(30, "503")), T0 + 1_000);
        Measurement m = reading.finish(T0 + 1_000, null);
        assertEquals(4, m.responses());
        assertEquals(1, m.errors().status4xx(), m.errors().toString());
        assertEquals(2, m.errors().status5xx(), m.errors().toString());
        assertEquals(3, m.series().get(0).errors());
    }

    @Test
    void aSecondIsToldOnlyOnceItsSlowestRequestsCanHaveBeenRead() {
        // Requests take 2.8 s (two agents on a busy machine over a 20 ms stub): one sent at 0 s is read at 2.8 s...
        reading.add(List.of(sent(0, 2_800)), T0 + 2_800);
        reading.publishLive(T0 + 3_200);
        assertEquals(List.of(), live, "3.2 s in, a request of second 0 sent later may still be running");
        // ...and one sent at 0.5 s only at 3.5 s: second 0 is told whole, once.
        reading.add(List.of(sent(500, 3_000)), T0 + 3_500);
        reading.publishLive(T0 + 6_000);
        assertEquals(1, live.size(), live.toString());
        assertEquals(2, live.get(0).requests(), live.toString());
    }

    @Test
    void aSecondWaitsAsLongAsSamplesTookToReachTheLab() {
        // 50 ms requests that reach the lab late (an agent's RMI on a busy machine): the first 1.3 s after it was sent.
        reading.add(List.of(sent(0, 50)), T0 + 1_300);
        reading.publishLive(T0 + 3_200);
        assertEquals(List.of(), live, "by their 50 ms alone second 0 would be told now, before its last request is in");
        reading.add(List.of(sent(900, 50)), T0 + 2_250);
        reading.publishLive(T0 + 4_400);
        assertEquals(1, live.size(), live.toString());
        assertEquals(2, live.get(0).requests(), "second 0 told whole: " + live);
    }
}
