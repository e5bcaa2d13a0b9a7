package dev.pvtlb.internal.kernel;


/**
 * One thing a task does in user mode: a batch of memory accesses, or a system call. It runs in
 * steps like a kernel path: {@link #run} returns a cost in ns and calls {@link Task#opDone}
 * when finished; a system call pushes its kernel path on the CPU and is done at once.
 */
public interface Op {
    long run(KernelCpu cpu, Task task);
}
