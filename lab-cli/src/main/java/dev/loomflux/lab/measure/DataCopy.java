package dev.loomflux.lab.measure;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.db.Seeder;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.sut.TargetSpec;

/**
 * A built-in target's own copy of table item (Database#resetCopy) under a flow on the items API, which may write into it: reset to
 * its seeded rows before the flow's load (the sequential design's measurement, the paired design's rounds, while no load runs),
 * and counted after it (results.json {@code data_rows}, docs/results-schema.md). Every target's load then starts from the same
 * rows, and what a run left in a copy is the creates no delete followed. A bring-your-own target keeps its own data, and a
 * scenario that only reads finds the copy as the target's start made it.
 */
public final class DataCopy {
    private DataCopy() {
    }

    /** Whether the target writes into a copy of the lab's under this scenario. */
    private static boolean applies(Database db, TargetSpec target, Scenario scenario) {
        return db != null && target.command() == null && scenario.isFlow() && scenario.needsDatabase();
    }

    /** @throws LabException when the copy cannot be made, in one line */
    public static void reset(Database db, TargetSpec target, Scenario scenario) {
        if (applies(db, target, scenario)) {
            db.resetCopy(target.name());
        }
    }

    /** The copy's rows at its reset and now; null where it does not apply, or when they cannot be counted (then the log says why). */
    public static Result.DataRows count(Database db, TargetSpec target, Scenario scenario, Log log) {
        if (!applies(db, target, scenario)) {
            return null;
        }
        try {
            return new Result.DataRows(Seeder.ROWS, db.copyRows(target.name()));
        } catch (LabException e) {
            log.line(target.name() + " " + scenario.name() + ": " + e.getMessage());
            return null;
        }
    }
}
