package dev.loomflux.lab.cli;

import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.sut.Targets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Which targets, including ones declared on the command line. */
public final class TargetOptions {
    @Option(names = "--targets", split = ",", paramLabel = "NAME",
            description = "Targets to use, comma-separated: mvc, mvc-vt, webflux, webflux-vt or a --define'd name. Default: mvc,mvc-vt,webflux.")
    List<String> names = new ArrayList<>(List.of("mvc", "mvc-vt", "webflux"));

    @Option(names = "--define", paramLabel = "NAME=BASE[,key=value...][,-JVMFLAG...]",
            description = "Declare a target on top of another, e.g. mvc-10=mvc,server.tomcat.threads.max=10. Repeatable.")
    List<String> definitions = new ArrayList<>();

    public List<TargetSpec> select() {
        return known().select(names, "--targets");
    }

    /** The built-in targets and those --define'd. */
    Targets known() {
        return known(List.of(), null);
    }

    /**
     * The built-in targets, {@code declared} (an experiment file's, which a --define may build on), and those --define'd.
     *
     * @param where the file that declared them, for a one-line error
     */
    Targets known(List<TargetSpec> declared, String where) {
        Targets targets = new Targets();
        declared.forEach(t -> targets.declare(t, where));
        definitions.forEach(targets::define);
        return targets;
    }
}
