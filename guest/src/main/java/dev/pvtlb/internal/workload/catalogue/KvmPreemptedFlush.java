package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.workload.Sequence;
import java.util.ArrayList;
import java.util.List;

/**
 * Catalogue 3 (CVE-2019-3016): vCPU 1 keeps using a region while vCPU 0 zaps it over and over;
 * each vCPU shares its pCPU with a vCPU of another VM, with the profile's host slice (3 ms): the
 * explorer's PREEMPT choices end either vCPU's slice at a step of its choosing, and both come
 * back a slice later. A zap while vCPU 1 is preempted sets KVM_VCPU_FLUSH_TLB in its steal time
 * instead of an IPI. With
 * {@code kvm.hostClearPreempted=plain-write} the host reads the field at the start of the
 * entry and writes zero at its end, so a request set in between is lost and vCPU 1 runs on
 * stale translations; {@code xchg} is safe. On a bare-metal backend the scenario simply has
 * two CPUs.
 */
public final class KvmPreemptedFlush extends Catalogue {
    @Override
    public String name() {
        return "kvm-preempted-flush";
    }

    @Override
    public String description() {
        return "catalogue: zaps while the other vCPU is preempted; the host clears steal_time.preempted on entry";
    }

    @Override
    int roles() {
        return 2;
    }

    @Override
    boolean sharesPcpus() {
        return true;
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 4);
        List<Op> zapper = new ArrayList<>(List.of(populate(r, 4)));
        for (int k = 0; k < 60; k++) {
            zapper.add(madvise(mm, r, 4));
            zapper.add(spin(2_000));
        }
        List<Op> user = new ArrayList<>(List.of(sleep(200)));
        for (int k = 0; k < 150; k++) {
            user.add(touch(r, 4, 8, 0.5));
            user.add(spin(1_000));
        }
        g.spawnPinned("zapper", mm, 0, new Sequence(zapper));
        g.spawnPinned("user", mm, 1, new Sequence(user));
        return mm;
    }
}
