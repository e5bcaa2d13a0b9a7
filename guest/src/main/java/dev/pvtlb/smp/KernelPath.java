package dev.pvtlb.smp;

import dev.pvtlb.stats.TimeCategory;
import java.util.function.ToLongFunction;

/**
 * A kernel code path run by one CPU as a sequence of atomic steps (DESIGN.md rule 2). Each
 * {@link #step} does the next piece of work at the CPU's current virtual time and returns its
 * cost; between steps other CPUs may act and interrupts may be taken. A path calls another by
 * {@link Cpu#call} (the callee runs next) and ends with {@link Cpu#ret}. It may return
 * {@link #BLOCK} to wait (a spin on a csd lock, HLT) until {@link Cpu#wake} is called; the
 * step is then run again, so a blocking step re-checks its condition.
 */
public abstract class KernelPath {
    /** For subclasses: each kernel path is a class of its own. */
    protected KernelPath() {}

    public static final long BLOCK = -1;

    /** Where the path is: each subclass numbers its own steps. */
    protected int pc;

    public abstract long step(Cpu cpu);

    /**
     * A path that is one atomic step on the calling CPU (a hypercall, a broadcast instruction
     * sequence, a pv op's own bookkeeping): {@code body} does its effects at the step and returns
     * its cost; a path it calls (a fallback to native IPIs) runs after it. {@code name} is the
     * kernel function it models.
     */
    public static KernelPath oneStep(String name, ToLongFunction<Cpu> body) {
        return new KernelPath() {
            @Override
            public long step(Cpu cpu) {
                cpu.ret();
                return body.applyAsLong(cpu);
            }

            @Override
            public String name() {
                return name;
            }
        };
    }

    /**
     * Puts the path back at its first step; the executor calls it when the path is called
     * (the step counter itself stays protected).
     */
    public final void restart() {
        pc = 0;
    }

    /**
     * What time spent in this path counts as. Asked before each step (its cost is charged to
     * the answer) and again after a step that blocked (the wait is charged to that answer).
     */
    public TimeCategory category() {
        return TimeCategory.KERNEL;
    }

    /** The kernel function this path models, for traces. */
    public abstract String name();

    /** One line for a step trace: the function and where in it this path is. */
    public String describe() {
        return name() + (pc == 0 ? "" : " #" + pc);
    }
}
