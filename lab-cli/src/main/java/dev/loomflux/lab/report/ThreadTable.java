package dev.loomflux.lab.report;

import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ThreadUse;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a request's time goes besides the CPU: each result's JVM threads by role over its measured blocks, their time on a
 * CPU and waiting runnable for one, per response, and their mean wait per turn on a CPU (docs/telemetry.md, "Where the time
 * goes"). A wait per turn near the kernel's timeslice means the role's threads were preempted: others held the CPU.
 */
final class ThreadTable {
    private static final String CAPTION = "Threads: time on a CPU and waiting for one (run queue), per request, by role over the measured blocks";

    private ThreadTable() {
    }

    static Table of(List<Result> results, String column) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            if (!r.ok() || r.telemetry().threads() == null) {
                continue;
            }
            for (ThreadUse t : r.telemetry().threads()) {
                List<String> row = ScenarioTables.who(r, column);
                row.addAll(List.of(t.role(), Cells.num(t.threads()), Cells.num(t.cpuUsPerRequest()), Cells.num(t.waitUsPerRequest()),
                        Cells.num(t.slicesPerRequest()), t.waitUsPerSlice() == null ? "-" : Cells.num(t.waitUsPerSlice())));
                rows.add(row);
            }
        }
        return new Table(CAPTION, rows.isEmpty() ? List.of() : ScenarioTables.header(column, "role", "threads", "CPU µs/request", "wait µs/request",
                "turns/request", "wait µs/turn"), rows);
    }
}
