package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.CallFunction;

/**
 * {@code call_single_data_t}: one queued cross-CPU call. The initiator holds the csd lock
 * until the target has run the function and released it (csd_unlock, {@code done}), which is
 * what {@code csd_lock_wait} spins on.
 */
final class Csd {
    final CallFunction func;
    final Runnable done;

    Csd(CallFunction func, Runnable done) {
        this.func = func;
        this.done = done;
    }
}
