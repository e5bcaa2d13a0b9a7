/**
 * The host side of pvtlb: real Linux memory-management and scheduling calls from Java.
 *
 * <p>{@link dev.pvtlb.nativebridge.NativeOs} is the facade (mmap, munmap, mprotect, madvise,
 * sched_setaffinity, sched_getcpu, sysconf, getpid) with two backends, FFM over the
 * jextract-shaped bindings in {@code ffm.generated} and JNA over {@code jna.CLibrary}. Every
 * argument that could make the kernel touch memory the caller does not own is checked in
 * Java first, so no call made through this package can crash the JVM; what the kernel
 * rejects comes back as a {@link dev.pvtlb.nativebridge.NativeCallException} naming errno.
 *
 * <p>{@code probe} reads the host (CPU topology, hypervisor, how remote TLB flushes are
 * done, TLB counters) from files under an injectable root; {@code hostbench} runs real
 * shootdown-heavy workloads on pinned threads.
 */
package dev.pvtlb.nativebridge;
