package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.CallFunction;
import dev.pvtlb.smp.Cpu;
import java.util.function.Consumer;

/**
 * {@code call_single_data_t}: one queued cross-CPU call. The initiator holds the csd lock
 * until the target has run the function and released it (csd_unlock, {@code done}), which is
 * what {@code csd_lock_wait} spins on.
 */
final class Csd {
    /** The CPU that queued it: the csd lives in its per-CPU cfd, so its line comes from there. */
    final Cpu from;
    final CallFunction func;
    /** csd_unlock(), given the CPU that ran the function. */
    final Consumer<Cpu> done;

    Csd(Cpu from, CallFunction func, Consumer<Cpu> done) {
        this.from = from;
        this.func = func;
        this.done = done;
    }
}
