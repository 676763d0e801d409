package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.jdk.JdkLocator;
import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.cpuprofile.AsyncAgent;
import dev.loomflux.lab.cpuprofile.Profiler;
import dev.loomflux.lab.sut.AotCache;
import dev.loomflux.lab.sut.LaunchSettings;
import java.util.Set;
import picocli.CommandLine.Option;

/** How target processes are launched; equal for every target of a run. */
public final class JvmOptions {
    @Option(names = "--java", paramLabel = "JDK",
            description = "JDK (home or bin/java) to run targets with, >= 21. Default: LOOMFLUX_JAVA, JAVA_HOME, then the newest in the usual JDK folders.")
    String java;

    @Option(names = "--heap", paramLabel = "SIZE", defaultValue = LaunchSettings.DEFAULT_HEAP,
            description = "Heap for every target (-Xms and -Xmx). Default: ${DEFAULT-VALUE}.")
    String heap;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address the targets and the stub bind to. Default: ${DEFAULT-VALUE}.")
    String host;

    @Option(names = "--cpus", paramLabel = "N",
            description = "CPU quota for every target, as docker run --cpus: may be fractional (0.5 = 50 ms per 100 ms), on top of its "
                    + "pinned CPUs; the JVM sees it rounded up. Applied through cgroups v1; where that is not possible the run says so.")
    Double cpus;

    @Option(names = "--memory", paramLabel = "SIZE",
            description = "Hard memory limit for every target process (heap, stacks, metaspace, buffers), as docker run --memory: e.g. 1g. "
                    + "A target that exceeds it is killed and its result says so.")
    String memory;

    @Option(names = "--aot-cache",
            description = "Start the built-in targets from a class cache made once per jar and JDK (-XX:AOTCache, JDK 25 or newer) "
                    + "by a start that serves no request, from the extracted jar: ready in ~3.5 s instead of ~8 s here. Off by "
                    + "default, as most deployments run: it changes the startup the report shows.")
    boolean aotCache;

    @Option(names = "--aot-cache-for", paramLabel = "TARGETS", split = ",",
            description = "As --aot-cache, for these targets only (names as in --targets or --define): a paired A/B of the cache itself, "
                    + "e.g. --define mvc-aot=mvc --aot-cache-for mvc-aot.")
    Set<String> aotCacheFor;

    @Option(names = "--cpu-profiler", paramLabel = "NAME", defaultValue = "jfr",
            description = "What takes every target's CPU samples, every 20 ms: jfr (Java frames), async (async-profiler's cpu event: native, "
                    + "kernel, GC and JIT frames too) or async-wall (its wall clock: every thread, waiting too; shares, no µs per request). "
                    + "Where async-profiler cannot load, the run refuses before it starts. Default: ${DEFAULT-VALUE} (docs/telemetry.md).")
    String profiler;

    /** Its name before the CPU profiler and the load profile (--profile) were told apart: given it, the lab names the new one. */
    @Option(names = "--profiler", hidden = true)
    String renamedProfiler;

    public LaunchSettings settings() {
        return settings(ResourceLimits.NONE);
    }

    /** @param fromFile an experiment file's limits; --cpus and --memory replace them one by one */
    public LaunchSettings settings(ResourceLimits fromFile) {
        if (renamedProfiler != null) {
            throw new UsageException("--profiler is now --cpu-profiler");
        }
        if (!heap.matches("[1-9][0-9]*[kKmMgG]")) {
            throw new UsageException("--heap " + heap + ": expected a size such as 512m or 2g");
        }
        if (cpus != null && !(cpus > 0)) {
            throw new UsageException("--cpus " + cpus + ": expected a number of CPUs above 0, e.g. 0.5");
        }
        long memoryBytes = memory == null ? 0 : ResourceLimits.parseMemory(memory, "--memory");
        if (memory != null && memoryBytes < ResourceLimits.MIN_MEMORY) {
            throw new UsageException("--memory " + memory + ": expected at least 16m");
        }
        Profiler sampler = Profiler.parse(profiler, "--cpu-profiler");
        ResourceLimits limits = new ResourceLimits(cpus == null ? fromFile.cpus() : cpus, memory == null ? fromFile.memoryBytes() : memoryBytes);
        Jdk jdk = JdkLocator.system().locate(java);
        if (aotCache && aotCacheFor != null) {
            throw new UsageException("--aot-cache-for: --aot-cache already starts every target from its cache; give one of them");
        }
        Set<String> cached = aotCache ? LaunchSettings.EVERY : aotCacheFor == null ? Set.of() : aotCacheFor;
        if (!cached.isEmpty()) {
            AotCache.requireJdk(jdk);
        }
        return new LaunchSettings(jdk, host, heap, limits, cached, sampler.async() ? AsyncAgent.load(sampler, jdk) : null);
    }
}
