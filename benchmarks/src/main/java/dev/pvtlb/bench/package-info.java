/**
 * JMH benchmarks. Each class measures one thing and says in its Javadoc what a figure
 * includes; each has a sanity test beside it that calls its methods once, so a broken
 * benchmark fails the build without the build ever timing anything.
 */
package dev.pvtlb.bench;
