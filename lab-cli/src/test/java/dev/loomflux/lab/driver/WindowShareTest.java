package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hyperfoil.api.statistics.StatisticsSnapshot;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Responses counted by their share of the window: Little's law at latencies as long as the window's seconds. */
class WindowShareTest {
    private static StatisticsSnapshot sent(int requests, double latencyMs) {
        StatisticsSnapshot s = new StatisticsSnapshot();
        s.histogram.recordValueWithCount((long) (latencyMs * 1e6), requests);
        s.requestCount = requests;
        s.responseCount = requests;
        return s;
    }

    @Test
    void usersInLockstepOverALongLatencyCountAsTheWavesThatRanThroughTheWindow() {
        // 100 users over a 4 s stub, all sending in the same second, every 4 s, as the lab measured them on mvc.
        TreeMap<Long, StatisticsSnapshot> bySecond = new TreeMap<>();
        for (long t = -2; t <= 30; t += 4) {
            bySecond.put(t * 1000, sent(100, 4000));
        }
        WindowShare share = WindowShare.of(bySecond, 0, 30_000, Long.MAX_VALUE, 10_000);
        assertEquals(25, share.responses() / 30, 0.25, "7.5 waves of 100 in 30 s: " + share);
        // Hyperfoil records 2 significant digits: 4,000 ms reads as one bucket's median, within 1%.
        assertEquals(100, share.flightMs() / 30_000, 1.0, "every user in flight all the time: " + share);
        // Counted whole by send second, the same window holds 7 waves: 93 users.
        assertEquals(700, bySecond.subMap(0L, 30_000L).values().stream().mapToLong(s -> s.responseCount).sum());
    }

    @Test
    void shortLatenciesCountAsWholeResponsesOfTheSecondTheyWereSentIn() {
        TreeMap<Long, StatisticsSnapshot> bySecond = new TreeMap<>();
        for (long t = -1; t <= 5; t++) {
            bySecond.put(t * 1000, sent(20_000, 2.5));
        }
        double answered = WindowShare.of(bySecond, 0, 4_000, Long.MAX_VALUE, 10_000).responses();
        assertEquals(80_000, answered, 80_000 * 0.001);
    }

    @Test
    void aShortLastSecondSpreadsItsSendsOverWhatItRan() {
        TreeMap<Long, StatisticsSnapshot> bySecond = new TreeMap<>();
        bySecond.put(0L, sent(1000, 1));
        bySecond.put(1000L, sent(250, 1));
        // Sends stopped at 1,250 ms: the second's 250 requests all fall inside a window that ends there.
        assertEquals(1250, WindowShare.of(bySecond, 0, 1_250, 1_250, 10_000).responses(), 2);
    }

    @Test
    void responsesWithoutALatencyAreSpreadLikeThoseWithOne() {
        StatisticsSnapshot s = sent(100, 1);
        s.responseCount = 120;
        TreeMap<Long, StatisticsSnapshot> bySecond = new TreeMap<>();
        bySecond.put(0L, s);
        assertEquals(120, WindowShare.of(bySecond, 0, 1_000, Long.MAX_VALUE, 10_000).responses(), 1);
    }

    @Test
    void aRequestThatTimedOutWasInFlightUntilItsTimeout() {
        // 10 users: each second 9 answered after 1 s and 1 timed out after 10 s, in a steady stream long before the window.
        TreeMap<Long, StatisticsSnapshot> bySecond = new TreeMap<>();
        for (long t = -20; t < 30; t++) {
            StatisticsSnapshot s = sent(9, 1000);
            s.requestCount = 10;
            s.requestTimeouts = 1;
            bySecond.put(t * 1000, s);
        }
        WindowShare share = WindowShare.of(bySecond, 0, 30_000, Long.MAX_VALUE, 10_000);
        assertEquals(9 + 10, share.inFlight(30), 0.2, "9 users in 1 s requests and 10 in timeouts, always: " + share);
        assertEquals(9, share.rps(30), 0.1, "timeouts are no responses: " + share);
        assertEquals(2 * share.inFlight(30), share.plus(share).inFlight(30), 1e-9, "two windows' time in flight adds up");
    }
}
