package dev.pvtlb.internal.host;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.host.HypervisorFlush;
import dev.pvtlb.host.KvmHost;
import dev.pvtlb.host.KvmScheduling;
import dev.pvtlb.host.VcpuEvents;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.NativeBackend;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.GuestKnobs;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuCondition;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.VmStat;

/**
 * A booted guest as a backend sees it at attach ({@link BackendContext}): every shipped backend
 * and a researcher's own reach the kernel and the host model only through this, so the SPI is
 * what the shipped designs prove sufficient. It lives with the host model, which it hands out,
 * and the kernel gets it through its facade registration (FacadeAccess), so that the kernel
 * does not name the host model built on it.
 */
public final class GuestBackendContext implements BackendContext {
    private final Kernel kernel;

    public GuestBackendContext(Kernel kernel) {
        this.kernel = kernel;
    }

    @Override
    public GuestKnobs knobs() {
        return kernel.knobs();
    }

    @Override
    public Knobs knobValues() {
        return kernel.knobValues();
    }

    @Override
    public long nowNs() {
        return kernel.engine().now();
    }

    @Override
    public Topology topology() {
        return kernel.topology();
    }

    @Override
    public void nativeFlushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        NativeBackend.nativeFlushTlbMulti(cpu, mask, info, kernel.knobs());
    }

    @Override
    public VmStat.Own counter(String name) {
        return kernel.vmstat().own(name);
    }

    @Override
    public Profile profile() {
        return kernel.profile();
    }

    @Override
    public Cpu cpu(int id) {
        return kernel.cpu(id);
    }

    @Override
    public int nrCpus() {
        return kernel.cpus().length;
    }

    @Override
    public void count(Counter counter, long n) {
        kernel.vmstat().add(counter, n);
    }

    @Override
    public CpuCondition flushTargets(FlushTlbInfo info) {
        return NativeBackend.lazyFilter(kernel.knobs(), info);
    }

    @Override
    public IpiDelivery hypercallIpi(boolean perTarget) {
        return new HypercallIpi(perTarget);
    }

    @Override
    public KvmHost kvmHost(VcpuEvents events, KvmScheduling s) {
        return HostModel.attach(kernel, events, new KvmSpin(s));
    }

    @Override
    public HypervisorFlush hypervisorFlush() {
        return new HostFlush(kernel);
    }
}
