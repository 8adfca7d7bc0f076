/** Child processes EnvBench starts and how they are kept apart from the terminal's signals. */
package io.envbench.base.process;
