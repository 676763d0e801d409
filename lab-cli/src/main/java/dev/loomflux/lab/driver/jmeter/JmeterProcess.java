package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** JMeter in non-GUI mode on one plan, from the home the build assembles, on the lab's own JVM. */
final class JmeterProcess {
    /**
     * The property that makes JMeter write {@link JmeterPlan#CLOSED} into the results file; the JVM that runs a sampler
     * reads it (with agents, the agent) and so does the one that writes the file.
     */
    static final String SAMPLE_VARIABLES = "sample_variables=" + JmeterPlan.CLOSED;

    /**
     * The results file as {@link Jtl} reads it, set on the command line whatever a jmeter.properties or user.properties
     * says: CSV with a header, flushed row by row, times in epoch ms, and every column the lab reads. A sample's
     * sub-samples (redirects followed, embedded resources) stay inside it: one row per sample a sampler took.
     */
    private static final List<String> RESULTS_FILE = List.of("output_format=csv", "autoflush=true", "print_field_names=true", "default_delimiter=,",
            "timestamp_format=ms", "time=true", "label=true", "response_code=true", "response_message=true", "successful=true", "thread_name=true",
            "bytes=true", "sent_bytes=true", "thread_counts=true", "connect_time=true", "assertion_results_failure_message=true", "url=true",
            "subresults=false");

    private JmeterProcess() {
    }

    /**
     * @param jtl        where the samples go, one CSV row each, flushed as they come so that seconds can be counted live
     * @param log        JMeter's own log (jmeter.log); its console goes to {@code log} + ".out"
     * @param jvmOptions before JMeter's launcher, e.g. RMI's address
     * @param options    JMeter's own, after the lab's, e.g. the agents
     */
    static ManagedProcess start(LabProcesses owner, Path home, Path plan, Path jtl, Path log, List<String> jvmOptions, List<String> options) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", home.resolve("bin").resolve("ApacheJMeter.jar").toString(),
                "-n", "-t", plan.toString(), "-l", jtl.toString(), "-j", log.toString(),
                // Without it JMeter 5.6.3 stayed alive after an open-model test had ended (threads of the open model's starter).
                "-Jjmeterengine.force.system.exit=true",
                // No UDP port for shutdown messages: JMeter opens it on every interface (a port of 1000 or less turns it off).
                "-Jjmeterengine.nongui.port=0",
                "-J" + JmeterProcess.SAMPLE_VARIABLES));
        RESULTS_FILE.forEach(p -> command.add("-Jjmeter.save.saveservice." + p));
        command.addAll(options);
        return ManagedProcess.start(owner, "jmeter", command, Path.of(log + ".out"));
    }
}
