package dev.pvtlb.internal.kernel;

/**
 * A kernel path that stands for a task's user-space execution: while it is on top of a CPU's
 * stack the CPU runs at CPL 3 (user_mode(regs) in the kernel). A marker, so the CPU can tell
 * without naming the path ({@link KernelCpu#inUserMode}).
 */
interface UserSpacePath {
}
