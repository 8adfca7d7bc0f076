package io.envbench.e2e;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.parallel.Isolated;

/**
 * A test class that JUnit may run at the same time as one other such class (src/test/pom.xml runs two at once): it
 * checks nothing host-wide that another class could change, changes no host setting, asserts no rate or time that a
 * shared CPU would bend, and locks what it shares with others ({@code @ResourceLock} on a key of
 * {@link SharedResources}: the labelled Docker resources, a fixed port). Every other test class is {@link Isolated}:
 * it runs alone, once every class marked so has ended (the classes that restart dockerd, pin CPUs, steer interrupts,
 * search capacities or compare rates). {@code EndToEndSuiteTest} fails a test class marked with neither, or both, and
 * one that uses Docker's classes without the Docker lock.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface BesideOthers {
    /** Why the class cannot disturb another running at the same time, nor be disturbed by it. */
    String value();
}
