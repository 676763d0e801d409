package dev.loomflux.targets;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.LinkedHashMap;
import java.util.Map;

/** JVM facts that /config reports on every target, so fairness can be checked, not assumed. */
public final class RuntimeFacts {
    // Thread.isVirtual() exists from JDK 21 on; we compile for 17, so look it up at run time.
    private static final MethodHandle IS_VIRTUAL = lookupIsVirtual();

    private RuntimeFacts() {
    }

    public static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invoke(thread);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The calling thread, as seen by the handler that serves /config. */
    public static Map<String, Object> requestThread() {
        Thread t = Thread.currentThread();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", t.getName());
        m.put("virtual", isVirtual(t));
        return m;
    }

    public static Map<String, Object> jvm() {
        Runtime rt = Runtime.getRuntime();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jdk", System.getProperty("java.version"));
        m.put("vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        m.put("available_processors", rt.availableProcessors());
        m.put("heap_max_mb", rt.maxMemory() / (1024 * 1024));
        m.put("pid", ProcessHandle.current().pid());
        return m;
    }

    private static MethodHandle lookupIsVirtual() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
