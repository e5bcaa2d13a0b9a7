package dev.pvtlb.internal.backends;

import dev.pvtlb.scenario.Scripted;

/** PVM_HC_FLUSH_TLB_MULTI: the host flushes the vCPUs, as Xen's multicall does. */
class PvmContractTest extends BackendContract {
    @Override
    String backend() {
        return "pvm";
    }

    @Override
    void countersAddUp(Scripted s) {
        XenPvContractTest.hostFlushesAddUp(s);
    }
}
