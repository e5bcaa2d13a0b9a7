package dev.pvtlb.internal.host;

/**
 * KVM's per-vCPU halt-polling window (vcpu->halt_poll_ns) and how it adapts after each halt
 * (virt/kvm/kvm_main.c: kvm_vcpu_block(), kvm_vcpu_halt() since 5.16; grow_halt_poll_ns(),
 * shrink_halt_poll_ns(); Documentation/virt/kvm/halt-polling.rst). A vCPU starts with no window;
 * a halt that ends within the module's halt_poll_ns grows it (times halt_poll_ns_grow, from
 * halt_poll_ns_grow_start, at most halt_poll_ns), a longer one shrinks it (divided by
 * halt_poll_ns_shrink; 0, the default, resets it), and one within the window leaves it. So a vCPU
 * whose halts last milliseconds (a lock waiter parked in kvm_wait() with IRQs off until its kick)
 * stops polling after the first, and keeps its pCPU only when its wake-ups come quickly.
 *
 * @param maxNs     halt_poll_ns (host.halt_poll.ns); 0 disables polling
 * @param growStartNs halt_poll_ns_grow_start (host.halt_poll.grow_start.ns)
 * @param grow      halt_poll_ns_grow (host.halt_poll.grow); 0 never grows
 * @param shrink    halt_poll_ns_shrink (host.halt_poll.shrink); 0 resets the window to 0
 */
record HaltPolling(long maxNs, long growStartNs, int grow, int shrink) {

    /**
     * The window after a halt of {@code haltNs} (from HLT until the vCPU thread ran again, the
     * poll included) with window {@code windowNs}: the end of kvm_vcpu_block() (x86's
     * vcpu_valid_wakeup() is always true).
     */
    long adapt(long windowNs, long haltNs) {
        if (maxNs == 0) {
            return 0;
        }
        if (haltNs <= windowNs) {
            return windowNs;
        }
        if (windowNs > 0 && haltNs > maxNs) {
            return shrink == 0 ? 0 : windowNs / shrink; // we had a long block, shrink polling
        }
        if (windowNs < maxNs && haltNs < maxNs && grow > 0) {
            // we had a short halt and our poll time is too small
            return Math.min(maxNs, Math.max(windowNs * grow, growStartNs));
        }
        return windowNs;
    }
}
