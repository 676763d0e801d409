package dev.loomflux.lab.driver.jmeter;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A JMeter plan as JMeter 5.6 itself loads it: {@code SaveService.loadTree}, from the JMeter home the build assembles,
 * in a class loader of its own (JMeter runs as a process of its own and is not on the lab's class path). What the lab
 * needs of it comes out as plain {@link Element}s: the enabled ones (JMeter runs no disabled element, nor anything
 * under one), in the plan's order. One instance per JMeter home, owned by whoever reads plans: JMeter stays loaded in it
 * once it has read a plan, since loading it takes seconds of CPU.
 */
final class PlanTree {
    /** What the lab tells apart in a plan; the rest is OTHER. */
    enum ElementKind { TEST_PLAN, VARIABLES, HTTP_DEFAULTS, HTTP_SAMPLER, THREAD_GROUP, SETUP_OR_TEARDOWN, OTHER_THREAD_GROUP, TRANSACTION, OTHER }

    /**
     * One enabled element of the plan.
     *
     * @param properties the JMeter properties of it the lab reads (its kind's {@link #READ}); a VARIABLES or TEST_PLAN
     *                   element's variables by name
     */
    record Element(ElementKind kind, String name, Map<String, String> properties, List<Element> children) {
        String property(String key) {
            return properties.getOrDefault(key, "");
        }
    }

    static final String DOMAIN = "HTTPSampler.domain";
    static final String PORT = "HTTPSampler.port";
    static final String PROTOCOL = "HTTPSampler.protocol";
    static final String PATH = "HTTPSampler.path";
    static final String THREADS = "ThreadGroup.num_threads";
    static final String SCHEDULER = "ThreadGroup.scheduler";
    static final String DURATION = "ThreadGroup.duration";
    /** Not a property of the thread group's but of its loop controller: -1 loops forever. */
    static final String LOOPS = "LoopController.loops";
    static final String PARENT_SAMPLE = "TransactionController.parent";

    private static final Map<ElementKind, List<String>> READ = Map.of(
            ElementKind.HTTP_DEFAULTS, List.of(DOMAIN, PORT, PROTOCOL),
            ElementKind.HTTP_SAMPLER, List.of(DOMAIN, PORT, PROTOCOL, PATH),
            ElementKind.THREAD_GROUP, List.of(THREADS, SCHEDULER, DURATION),
            ElementKind.TRANSACTION, List.of(PARENT_SAMPLE));

    /** JMeter's classes by the kind they make an element, most specific first: a set-up thread group is a thread group too. */
    private static final Map<String, ElementKind> CLASSES = classes();

    private static Map<String, ElementKind> classes() {
        Map<String, ElementKind> m = new LinkedHashMap<>();
        m.put("org.apache.jmeter.testelement.TestPlan", ElementKind.TEST_PLAN);
        m.put("org.apache.jmeter.config.Arguments", ElementKind.VARIABLES);
        m.put("org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase", ElementKind.HTTP_SAMPLER);
        m.put("org.apache.jmeter.threads.SetupThreadGroup", ElementKind.SETUP_OR_TEARDOWN);
        m.put("org.apache.jmeter.threads.PostThreadGroup", ElementKind.SETUP_OR_TEARDOWN);
        m.put("org.apache.jmeter.threads.ThreadGroup", ElementKind.THREAD_GROUP);
        m.put("org.apache.jmeter.threads.AbstractThreadGroup", ElementKind.OTHER_THREAD_GROUP);
        m.put("org.apache.jmeter.control.TransactionController", ElementKind.TRANSACTION);
        return m;
    }

    private final Path home;
    /** JMeter's classes, with its properties loaded; null until the first plan. */
    private ClassLoader loader;
    /** {@link #CLASSES} as the loader loaded them. */
    private final Map<Class<?>, ElementKind> kinds = new LinkedHashMap<>();

    /** @param home a JMeter home: bin/jmeter.properties, lib/, lib/ext/ */
    PlanTree(Path home) {
        this.home = home;
    }

    /** Thrown when JMeter cannot load the file as a plan, with why as JMeter says it (one line). */
    static final class NotAPlan extends Exception {
        NotAPlan(String message) {
            super(message, null, false, false);
        }
    }

    /** The plan's top-level elements (its test plan, normally) as JMeter loads them. */
    synchronized List<Element> load(Path file) throws NotAPlan {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try {
            ClassLoader loader = jmeter();
            // JMeter's XStream finds its classes through the context class loader.
            Thread.currentThread().setContextClassLoader(loader);
            Object tree;
            try {
                tree = loader.loadClass("org.apache.jmeter.save.SaveService").getMethod("loadTree", File.class).invoke(null, file.toFile());
            } catch (InvocationTargetException e) {
                // The deepest cause says what is wrong ("CannotResolveClassException: foo"); SaveService's own wrapper only where.
                Throwable cause = e.getCause();
                while (cause.getCause() != null && cause.getCause() != cause) {
                    cause = cause.getCause();
                }
                String message = cause.getMessage() == null ? "" : cause.getMessage().strip().lines().findFirst().orElse("");
                throw new NotAPlan(cause.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message));
            }
            if (!(tree instanceof Map<?, ?> root)) {
                throw new NotAPlan("no test plan in it");
            }
            return elements(root);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("JMeter in " + home + " cannot load plans: " + e, e);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    private ClassLoader jmeter() throws ReflectiveOperationException {
        if (loader != null) {
            return loader;
        }
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try {
            URLClassLoader jmeter = new URLClassLoader(jars(home), ClassLoader.getPlatformClassLoader());
            Thread.currentThread().setContextClassLoader(jmeter);
            Class<?> utils = jmeter.loadClass("org.apache.jmeter.util.JMeterUtils");
            utils.getMethod("setJMeterHome", String.class).invoke(null, home.toString());
            utils.getMethod("loadJMeterProperties", String.class).invoke(null, home.resolve("bin").resolve("jmeter.properties").toString());
            utils.getMethod("initLocale").invoke(null);
            for (Map.Entry<String, ElementKind> e : CLASSES.entrySet()) {
                kinds.put(jmeter.loadClass(e.getKey()), e.getValue());
            }
            loader = jmeter;
            return loader;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    private static URL[] jars(Path home) throws IOException {
        List<URL> out = new ArrayList<>();
        for (Path lib : List.of(home.resolve("lib"), home.resolve("lib").resolve("ext"))) {
            try (Stream<Path> files = Files.list(lib)) {
                for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
                    out.add(url(jar));
                }
            }
        }
        return out.toArray(URL[]::new);
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JMeter HashTree: a map from each element to the tree under it, whose list() keeps the plan's order. */
    private List<Element> elements(Map<?, ?> tree) throws ReflectiveOperationException {
        List<Element> out = new ArrayList<>();
        for (Object element : (Collection<?>) tree.getClass().getMethod("list").invoke(tree)) {
            if (!(Boolean) call(element, "isEnabled")) {
                continue;
            }
            ElementKind kind = kind(element);
            out.add(new Element(kind, (String) call(element, "getName"), properties(kind, element), elements((Map<?, ?>) tree.get(element))));
        }
        return out;
    }

    private ElementKind kind(Object element) throws ReflectiveOperationException {
        for (Map.Entry<Class<?>, ElementKind> e : kinds.entrySet()) {
            if (e.getKey().isInstance(element)) {
                return e.getValue();
            }
        }
        String gui = string(element, "TestElement.gui_class");
        // HTTP Request Defaults are a plain config element that only its GUI class tells apart.
        return gui.endsWith("HttpDefaultsGui") ? ElementKind.HTTP_DEFAULTS : ElementKind.OTHER;
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> properties(ElementKind kind, Object element) throws ReflectiveOperationException {
        Map<String, String> out = new LinkedHashMap<>();
        switch (kind) {
            case TEST_PLAN -> out.putAll((Map<String, String>) call(element, "getUserDefinedVariables"));
            case VARIABLES -> out.putAll((Map<String, String>) call(element, "getArgumentsAsMap"));
            default -> {
                for (String key : READ.getOrDefault(kind, List.of())) {
                    out.put(key, string(element, key));
                }
            }
        }
        if (kind == ElementKind.THREAD_GROUP) {
            out.put(LOOPS, string(call(element, "getSamplerController"), LOOPS));
        }
        return out;
    }

    private String string(Object element, String key) throws ReflectiveOperationException {
        return (String) element.getClass().getMethod("getPropertyAsString", String.class).invoke(element, key);
    }

    private static Object call(Object target, String method) throws ReflectiveOperationException {
        return target.getClass().getMethod(method).invoke(target);
    }
}
