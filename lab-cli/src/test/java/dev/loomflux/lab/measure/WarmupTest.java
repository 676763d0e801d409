package dev.loomflux.lab.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many users heat the code in the compile stage, from what the 2-user probe saw. */
class WarmupTest {
    @Test
    void usersWaitingOnADownstreamAreAddedUntilTheRateHeatsTheCode() {
        // gateway over a 20 ms downstream: 2 users made 85 rps at 8% of a core -> 2 x 1000 / 85 = 23.5
        assertEquals(24, Warmup.heatUsers(85, 8.0, 200));
        // a 500 ms downstream: 4 rps would ask for 500 users; Tomcat's 200 threads are the most
        assertEquals(200, Warmup.heatUsers(4, 1.0, 200));
        // never more than the measured profile itself
        assertEquals(50, Warmup.heatUsers(4, 1.0, 50));
        // without a CPU reading the rate decides alone
        assertEquals(5, Warmup.heatUsers(400, null, 200));
    }

    @Test
    void twoUsersStayWhenTheyAreFastOrKeepTheTargetBusy() {
        assertEquals(2, Warmup.heatUsers(12_000, 95.0, 200), "plaintext");
        assertEquals(2, Warmup.heatUsers(1000, 40.0, 200), "at the heating rate already");
        // CPU-bound work: slow, but more users would only crowd the compiler threads
        assertEquals(2, Warmup.heatUsers(300, 50.0, 200), "cpu");
        assertEquals(2, Warmup.heatUsers(0, null, 200), "no responses: nothing to go by");
    }
}
