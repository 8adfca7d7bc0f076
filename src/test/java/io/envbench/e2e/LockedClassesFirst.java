package io.envbench.e2e;

import java.util.Comparator;

import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The order JUnit hands the test classes to its two workers (src/test/pom.xml): the {@link BesideOthers} classes that
 * hold a shared lock first, then those that hold none, then the {@code @Isolated} ones (they run alone afterwards in
 * any order); by name within each group. JUnit's fork-join pool runs the classes it forks from both ends: one worker
 * takes them from the first, the other from the last. So one worker goes through the locked classes one after another,
 * never waiting on the other for a lock, while the other goes through the free ones; without this order both workers
 * met locked classes at once and one waited, or idled while the last locked classes ran one by one.
 */
public final class LockedClassesFirst implements ClassOrderer {
    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors()
                .sort(Comparator.comparingInt(LockedClassesFirst::group)
                        .thenComparing(d -> d.getTestClass().getName()));
    }

    private static int group(ClassDescriptor d) {
        Class<?> c = d.getTestClass();
        if (!AnnotationSupport.isAnnotated(c, BesideOthers.class)) {
            return 2;
        }
        return AnnotationSupport.findRepeatableAnnotations(c, ResourceLock.class)
                        .isEmpty()
                ? 1
                : 0;
    }
}
