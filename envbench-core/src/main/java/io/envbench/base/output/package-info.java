/**
 * Files EnvBench writes as data (metrics, {@code runs.csv}): appended a whole row at a time, cut back to their last
 * whole row when the disk fills, and read back only up to their last whole row; and outputs checked at the start, so
 * one that cannot be written at all is an error before anything runs, not silence later.
 */
package io.envbench.base.output;
