package dev.loomflux.lab.cli;

import dev.loomflux.lab.jdk.JdkLocator;
import dev.loomflux.lab.target.LaunchSettings;
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

    public LaunchSettings settings() {
        if (!heap.matches("[1-9][0-9]*[kKmMgG]")) {
            throw new dev.loomflux.lab.UsageException("--heap " + heap + ": expected a size such as 512m or 2g");
        }
        return new LaunchSettings(JdkLocator.system().locate(java), host, heap);
    }
}
