package dev.loomflux.lab.verify;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.db.DatabaseSource;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.result.Tables;
import dev.loomflux.lab.sut.Downstream;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.Placement;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.TargetSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the checks on each target in turn, one target alive at a time. */
public final class Verifier {
    private final LabProcesses processes;
    private final Home home;
    private final List<TargetSpec> targets;
    private final LaunchSettings settings;
    private final DatabaseSource database;
    private final PrintWriter out;

    /** @param processes what the lab owns: the stub and the targets are started as its */
    public Verifier(LabProcesses processes, Home home, List<TargetSpec> targets, LaunchSettings settings, DatabaseSource database, PrintWriter out) {
        this.processes = processes;
        this.home = home;
        this.targets = targets;
        this.settings = settings;
        this.database = database;
        this.out = out;
    }

    public List<CheckResult> run() {
        // Fail on missing jars before starting anything.
        targets.forEach(t -> t.requireBuilt(home));
        Path dir = home.newRunDir("verify");
        out.println("verify: JDK " + settings.jdk().version() + " at " + settings.jdk().home() + "; logs in " + dir);
        List<CheckResult> results = new ArrayList<>();
        try (Database db = database.open(dir, line -> out.println("verify: " + line));
             Downstream stub = Downstream.start(processes, home, settings, Placement.ANYWHERE, dir)) {
            out.println("verify: database " + db.description() + "; stub at " + stub.base());
            for (TargetSpec spec : targets) {
                try (RunningTarget t = RunningTarget.start(processes, home, spec, settings, Placement.ANYWHERE, stub.base(), db, dir)) {
                    out.flush();
                    out.println("verify: " + spec.name() + " ready in " + t.startupMillis() + " ms (pid " + t.process().pid() + ")");
                    if (spec.command() != null) {
                        results.add(new CheckResult(spec.name(), "ready", true, "bring-your-own target: the API checks do not apply"));
                    } else {
                        results.addAll(TargetChecks.run(t, true));
                    }
                } catch (LabException e) {
                    if (processes.stopping()) {
                        break;
                    }
                    results.add(new CheckResult(spec.name(), "start", false, e.getMessage()));
                }
            }
        }
        return results;
    }

    public static void printTable(List<CheckResult> results, PrintWriter out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TARGET", "CHECK", "", "DETAIL"});
        for (CheckResult r : results) {
            rows.add(new String[] {r.target(), r.check(), r.passed() ? "ok" : "FAIL", r.detail()});
        }
        Tables.plain(rows).forEach(out::println);
        out.flush();
    }
}
