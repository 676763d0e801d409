package dev.loomflux.lab.cli;

import dev.loomflux.lab.cpu.CpuPlan;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** Where the target, the driver and the support processes run. */
public final class CpuOptions {
    @Option(names = "--target-cpus", paramLabel = "CPUS", description = "CPUs for the target, e.g. 0 or 0-3.")
    String target;

    @Option(names = "--driver-cpus", paramLabel = "CPUS", description = "CPUs for the load driver (this process).")
    String driver;

    @Option(names = "--support-cpus", paramLabel = "CPUS", description = "CPUs for the stub and the database.")
    String support;

    @Option(names = "--no-pin", description = "Do not pin processes to CPUs.")
    boolean noPin;

    public CpuPlan plan() {
        Map<String, String> requested = new LinkedHashMap<>();
        requested.put("target", target);
        requested.put("driver", driver);
        requested.put("support", support);
        return CpuPlan.plan(!noPin, requested);
    }
}
