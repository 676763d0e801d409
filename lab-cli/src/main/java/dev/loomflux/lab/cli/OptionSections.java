package dev.loomflux.lab.cli;

import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * A command's options in its help under headings, by the class that declares them: what to run, load,
 * design and statistics, machine, output. The command's own options and the help's come first, unheaded.
 */
public final class OptionSections implements IModelTransformer, IHelpSectionRenderer {
    private static final Map<String, List<Class<?>>> HEADINGS = headings();

    private static Map<String, List<Class<?>>> headings() {
        Map<String, List<Class<?>>> m = new LinkedHashMap<>();
        m.put("What to run", List.of(TargetOptions.class, ScenarioOptions.class));
        m.put("Load", List.of(LoadOptions.class, DriverOptions.class));
        m.put("Design and statistics", List.of(DesignOptions.class));
        m.put("Machine", List.of(CpuOptions.class, JvmOptions.class, DatabaseOptions.class, MachineOptions.class));
        m.put("Output", List.of(OutputOptions.class));
        return m;
    }

    @Override
    public CommandSpec transform(CommandSpec spec) {
        spec.usageMessage().sectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, this);
        return spec;
    }

    @Override
    public String render(Help help) {
        List<OptionSpec> shown = help.commandSpec().options().stream().filter(o -> !o.hidden()).toList();
        StringBuilder out = new StringBuilder(list(help, shown.stream().filter(o -> HEADINGS.values().stream().noneMatch(in -> in.contains(declaredIn(o)))).toList()));
        HEADINGS.forEach((heading, classes) -> {
            List<OptionSpec> under = shown.stream().filter(o -> classes.contains(declaredIn(o))).toList();
            if (!under.isEmpty()) {
                out.append(help.createHeading("%n" + heading + ":%n")).append(list(help, under));
            }
        });
        return out.toString();
    }

    private static Class<?> declaredIn(OptionSpec option) {
        return option.userObject() instanceof Field f ? f.getDeclaringClass() : null;
    }

    private static String list(Help help, List<OptionSpec> options) {
        Help.Layout layout = help.createDefaultLayout();
        options.forEach(o -> layout.addOption(o, help.createDefaultParamLabelRenderer()));
        return layout.toString();
    }
}
