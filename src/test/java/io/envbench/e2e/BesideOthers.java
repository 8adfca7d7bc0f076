package io.envbench.e2e;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.parallel.Isolated;

/**
 * A test class that JUnit may run at the same time as one other such class (src/test/pom.xml runs two at once): it
 * leaves no Docker resource for another class to see, checks nothing host-wide that another class could change, uses
 * no fixed port another such class uses, and asserts no rate or time that a shared CPU would bend. Every other test
 * class is {@link Isolated}: it runs alone, once every class marked so has ended (the classes that check that nothing
 * labelled is left in Docker, restart dockerd, pin CPUs, search capacities or compare rates). {@code EndToEndSuiteTest}
 * fails a test class marked with neither, or both.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface BesideOthers {
    /** Why the class cannot disturb another running at the same time, nor be disturbed by it. */
    String value();
}
