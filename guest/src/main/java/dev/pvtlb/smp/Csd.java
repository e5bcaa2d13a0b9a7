package dev.pvtlb.smp;

/**
 * {@code call_single_data_t}: one queued cross-CPU call. The initiator holds the csd lock
 * until the target has run the function and released it (csd_unlock), which is what
 * {@code csd_lock_wait} spins on.
 */
final class Csd {
    final CallFunction func;
    final SmpCallFunctionMany owner;

    Csd(CallFunction func, SmpCallFunctionMany owner) {
        this.func = func;
        this.owner = owner;
    }
}
