package dev.loomflux.lab.driver;

import dev.loomflux.lab.process.ManagedProcess;
import java.nio.file.Path;
import java.util.List;

/** JMeter in non-GUI mode on one plan, from the home the build assembles, on the lab's own JVM. */
final class JmeterProcess {
    private JmeterProcess() {
    }

    /**
     * @param jtl where the samples go, one CSV row each, flushed as they come so that seconds can be counted live
     * @param log JMeter's own log (jmeter.log); its console goes to {@code log} + ".out"
     */
    static ManagedProcess start(Path home, Path plan, Path jtl, Path log) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return ManagedProcess.start("jmeter", List.of(java, "-jar", home.resolve("bin").resolve("ApacheJMeter.jar").toString(),
                "-n", "-t", plan.toString(), "-l", jtl.toString(), "-j", log.toString(),
                // Without it JMeter 5.6.3 stayed alive after an open-model test had ended (threads of the open model's starter).
                "-Jjmeterengine.force.system.exit=true",
                "-Jjmeter.save.saveservice.autoflush=true",
                "-Jjmeter.save.saveservice.output_format=csv"), Path.of(log + ".out"));
    }
}
