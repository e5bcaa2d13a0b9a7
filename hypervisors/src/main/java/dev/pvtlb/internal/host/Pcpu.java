package dev.pvtlb.internal.host;

import java.util.ArrayList;
import java.util.List;

/** A physical CPU of the host: the vCPUs placed on it and the one it runs now. */
public final class Pcpu {
    public final int id;
    final List<HostVcpu> vcpus = new ArrayList<>();
    HostVcpu current;
    boolean timerArmed;
    /** Bumped when a timer is armed or voided; a timer event of an older generation does nothing. */
    long timerGen;

    Pcpu(int id) {
        this.id = id;
    }

    /** The next runnable vCPU after the current one, round-robin, or null. */
    HostVcpu nextRunnable(boolean guestOnly) {
        int n = vcpus.size();
        int start = current == null ? 0 : vcpus.indexOf(current) + 1;
        for (int i = 0; i < n; i++) {
            HostVcpu v = vcpus.get((start + i) % n);
            if (v != current && v.state == VcpuState.RUNNABLE && (!guestOnly || v.cpu != null)) {
                return v;
            }
        }
        return null;
    }
}
