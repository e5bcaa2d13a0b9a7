package dev.pvtlb.internal.kernel;

/** What a task does: the next operation each time the previous one finished; null to exit. */
@FunctionalInterface
public interface Program {
    Op next(Task task);
}
