package dev.loomflux.targets;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** Whether a thread is virtual, on a JDK that may predate virtual threads. */
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

    private static MethodHandle lookupIsVirtual() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
