/**
 * Real host benchmarks of TLB shootdown cost: munmap storms, mprotect noise on pinned
 * victims, madvise(MADV_DONTNEED) and re-touch loops. Bounded by {@link
 * dev.pvtlb.nativebridge.hostbench.BenchLimits}; no CLI here, {@code pvtlb host ...} wires them.
 */
package dev.pvtlb.nativebridge.hostbench;
