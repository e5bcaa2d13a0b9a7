package dev.pvtlb.internal.backends;

import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.host.VcpuEvents;
import dev.pvtlb.host.KvmScheduling;
import dev.pvtlb.host.KvmHost;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.pvops.InjectedBug;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.IpiKind;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;

/**
 * KVM: kvm_flush_tlb_multi() (arch/x86/kernel/kvm.c) and the host's record_steal_time()
 * (arch/x86/kvm/x86.c). The host sets steal_time.preempted = KVM_VCPU_PREEMPTED when it
 * deschedules a runnable vCPU (not one halted in HLT). The guest, for each target with that
 * flag, cmpxchg()s in KVM_VCPU_FLUSH_TLB and drops it from the IPI mask; the rest get native
 * IPIs. On the vCPU's next entry the host clears the field and flushes the vCPU's TLB if the
 * request bit was set: atomically with xchg (since the CVE-2019-3016 fix), or, with
 * {@code kvm.hostClearPreempted=plain-write}, by reading it at the start of the entry and
 * writing zero at its end, which loses a request set in between.
 */
public final class KvmBackend extends GuestTableFree implements VcpuEvents {
    static final KnobSpec PV_TLB_FLUSH = KnobSpec.bool("kvm.pvTlbFlush", true,
            "KVM_FEATURE_PV_TLB_FLUSH: preempted targets get KVM_VCPU_FLUSH_TLB in steal time instead of an IPI");
    static final KnobSpec HOST_CLEAR = KnobSpec.choice("kvm.hostClearPreempted", "xchg",
            "how the host clears steal_time.preempted on vCPU entry: xchg (atomic, the fix), plain-write "
                    + "(read, then write zero later: CVE-2019-3016, a flush request can be lost)",
            "xchg", "plain-write");
    static final KnobSpec PLE = KnobSpec.bool("kvm.ple", true,
            "pause-loop exiting (VMX PLE, ple_gap != 0): a vCPU spinning past the PLE window exits and "
                    + "kvm_vcpu_on_spin() yields to another vCPU of the VM");
    static final KnobSpec BOOST = KnobSpec.bool("kvm.boost", true,
            "directed yield prefers vCPUs being delivered an interrupt: vcpu->ready is set by kvm_vcpu_wake_up() "
                    + "too (commit d73eb57b80b9, Linux 5.2); false: only vCPUs preempted while runnable");
    static final KnobSpec BOOST_USER_MODE = KnobSpec.bool("kvm.boostUserMode", true,
            "a vCPU preempted in user mode is a directed-yield candidate when an interrupt is pending for it "
                    + "(kvm_arch_dy_has_pending_interrupt(), commit 52acd22faa1a, Linux 5.13); false: only vCPUs preempted in kernel mode");
    static final KnobSpec PV_SCHED_YIELD = KnobSpec.bool("kvm.pvSchedYield", true,
            "KVM_FEATURE_PV_SCHED_YIELD: after sending call-function IPIs the guest issues KVM_HC_SCHED_YIELD "
                    + "for a preempted, non-idle target and the host yields to it (commit 715062970f37, Linux 5.3)");
    static final KnobSpec HALT_POLL = KnobSpec.bool("kvm.haltPoll", true,
            "halt polling: a halted vCPU that is its pCPU's only runnable task is polled for host.halt_poll.ns "
                    + "before it is scheduled out (kvm_vcpu_halt())");
    static final KnobSpec PV_SPINLOCK = KnobSpec.bool("kvm.pvSpinlock", true,
            "KVM_FEATURE_PV_UNHALT: paravirtual spinlocks (kvm_spinlock_init()): a waiter that has spun SPIN_THRESHOLD turns "
                    + "halts (kvm_wait) and the unlocker kicks it awake with KVM_HC_KICK_CPU; false: waiters only spin, on a test-and-set lock or "
                    + "queued (the guest's virtSpinLock)");
    static final KnobSpec KICK_YIELD = KnobSpec.bool("kvm.kickYield", true,
            "host: KVM_HC_KICK_CPU ends with kvm_sched_yield() to the woken vCPU when it is ready, so the unlocker's pCPU "
                    + "goes to the queue head it kicked (266e85a5ec91, \"KVM: X86: Boost queue head vCPU to mitigate lock "
                    + "waiter preemption\", 5.4); false: the kick only wakes it");
    static final KnobSpec PREEMPTED_ON_HALT = KnobSpec.bool("kvm.preemptedOnHalt", false,
            "steal_time.preempted is set for a halted vCPU too when its thread is scheduled out (kvm_arch_vcpu_put() on every "
                    + "put, so an idle vCPU looks preempted to the guest: described in 9ee83635d872's message, 2022); false: only "
                    + "for a vCPU descheduled while runnable (\"KVM: x86: do not set st->preempted when going back to user space\", 2022)");
    static final KnobSpec SCHED_YIELD_SKIPS_IDLE = KnobSpec.bool("kvm.schedYieldSkipsIdle", true,
            "kvm_smp_send_call_func_ipi() yields only to a preempted target that is not idle (9ee83635d872, \"KVM: x86: Yield to "
                    + "IPI target vCPU only if it is busy\", 5.17); false: to the first preempted target, idle or not (715062970f37)");
    static final byte KVM_VCPU_PREEMPTED = 1;
    static final byte KVM_VCPU_FLUSH_TLB = 2;

    private final BackendContext guest;
    private final boolean pvTlbFlush;
    private final boolean plainWrite;
    /** steal_time.preempted of each vCPU: guest memory written by both sides. */
    private final byte[] preempted;
    private final KvmHost host;
    private final boolean pvSchedYield;
    private final boolean preemptedOnHalt;
    private final boolean schedYieldSkipsIdle;
    /** hypercall.ns: a KVM_HC_SCHED_YIELD. */
    private final long hypercallNs;
    /** line.same_socket.ns: READ_ONCE(src->preempted), a line the host writes. */
    private final long stealTimeReadNs;

    KvmBackend(BackendContext guest, Knobs k) {
        super(guest.knobs());
        this.guest = guest;
        this.pvTlbFlush = k.bool(PV_TLB_FLUSH.name());
        this.plainWrite = k.get(HOST_CLEAR.name()).equals("plain-write");
        this.preempted = new byte[guest.nrCpus()];
        this.hypercallNs = guest.profile().ns("hypercall.ns");
        this.stealTimeReadNs = guest.profile().ns("line.same_socket.ns");
        this.pvSchedYield = k.bool(PV_SCHED_YIELD.name());
        this.preemptedOnHalt = k.bool(PREEMPTED_ON_HALT.name());
        this.schedYieldSkipsIdle = k.bool(SCHED_YIELD_SKIPS_IDLE.name());
        this.host = guest.kvmHost(this, new KvmScheduling(k.bool(PLE.name()), k.bool(BOOST.name()),
                k.bool(BOOST_USER_MODE.name()), k.bool(HALT_POLL.name()), k.bool(PV_SPINLOCK.name()),
                k.bool(KICK_YIELD.name())));
    }

    /**
     * kvm_smp_send_call_func_ipi() (arch/x86/kernel/kvm.c, 715062970f37), for the IPIs of a call
     * that takes the mask path ({@link IpiKind#CALL_FUNCTION_MASK}): the IPIs go out (one
     * KVM_HC_SEND_IPI hypercall, KVM_FEATURE_PV_SEND_IPI); then, for the first target that is not
     * idle (with {@code kvm.schedYieldSkipsIdle}) and whose steal_time.preempted is set, one
     * KVM_HC_SCHED_YIELD hypercall, which the host answers with a directed yield to it if it can
     * ({@link SchedYieldHypercall}, the steps after this one).
     */
    private long sendCallFuncIpi(IpiDelivery ipi, Cpu from, Cpu[] targets, int count, IpiKind kind) {
        long cost = ipi.send(from, targets, count, kind);
        if (!pvSchedYield || kind != IpiKind.CALL_FUNCTION_MASK) {
            // kvm_smp_send_call_func_ipi() is smp_ops.send_call_func_ipi, the mask path only: a
            // reschedule IPI and a call-function IPI by the single-target path
            // (send_call_func_single_ipi) go out without the yield.
            return cost;
        }
        // !idle_cpu(cpu) && vcpu_is_preempted(cpu); before 9ee83635d872 (5.17) vcpu_is_preempted(cpu) alone.
        from.call(new SchedYieldHypercall(java.util.Arrays.copyOf(targets, count),
                t -> (!schedYieldSkipsIdle || !t.idle()) && (preempted[t.id()] & KVM_VCPU_PREEMPTED) != 0,
                host, hypercallNs, guest));
        return cost;
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        if (!pvTlbFlush) {
            guest.nativeFlushTlbMulti(cpu, mask, info);
            return;
        }
        cpu.call(KernelPath.oneStep("kvm_flush_tlb_multi", c -> {
            CpuMask flushmask = new CpuMask(mask.nrCpus());
            flushmask.copyFrom(mask);
            long cost = 0;
            for (int t = mask.next(0); t >= 0; t = mask.next(t + 1)) {
                cost += stealTimeReadNs; // READ_ONCE(src->preempted): a line the host writes
                byte state = preempted[t];
                if ((state & KVM_VCPU_PREEMPTED) != 0) {
                    preempted[t] = (byte) (state | KVM_VCPU_FLUSH_TLB); // try_cmpxchg succeeds: one step
                    flushmask.clear(t);
                    if ((state & KVM_VCPU_FLUSH_TLB) == 0) {
                        guest.count(Counter.DEFERRED_FLUSHES, 1);
                    }
                }
            }
            guest.nativeFlushTlbMulti(c, flushmask, info);
            return cost;
        }));
    }

    /**
     * kvm_steal_time_set_preempted(): a vCPU descheduled while runnable; with
     * {@code kvm.preemptedOnHalt}, a halted one whose thread is scheduled out too.
     */
    @Override
    public void descheduled(Cpu vcpu, boolean wasRunnable) {
        if (wasRunnable || preemptedOnHalt) {
            preempted[vcpu.id()] = KVM_VCPU_PREEMPTED;
        }
    }

    /** record_steal_time(), first half: read the field (and clear it at once with xchg). */
    @Override
    public void entryBegin(Cpu vcpu) {
        int id = vcpu.id();
        byte state = preempted[id];
        if (!plainWrite) {
            preempted[id] = 0;
        }
        if ((state & KVM_VCPU_FLUSH_TLB) != 0 && guest.knobs().bug != InjectedBug.KVM_ENTRY_DROPS_FLUSH) {
            // kvm_vcpu_flush_tlb_guest(): every guest translation of this vCPU.
            vcpu.flushAllAsids();
            guest.count(Counter.HYPERVISOR_FLUSHES, 1);
        }
    }

    /** record_steal_time(), second half with plain-write: the copy, preempted = 0, is written back. */
    @Override
    public void entryEnd(Cpu vcpu) {
        if (plainWrite) {
            preempted[vcpu.id()] = 0;
        }
    }

    public static final class Provider extends BackendProvider {
        public Provider() {
            super("kvm", "KVM guest: IPIs, except preempted vCPUs get KVM_VCPU_FLUSH_TLB in steal time, flushed at next entry", true,
                    PV_TLB_FLUSH, HOST_CLEAR, PLE, BOOST, BOOST_USER_MODE, PV_SCHED_YIELD, HALT_POLL, PV_SPINLOCK,
                    KICK_YIELD, PREEMPTED_ON_HALT, SCHED_YIELD_SKIPS_IDLE);
        }

        @Override
        public Object attach(BackendContext facade, Knobs knobs) {
            KvmBackend b = new KvmBackend(facade, knobs);
            // KVM_FEATURE_PV_SEND_IPI: one KVM_HC_SEND_IPI hypercall per IPI bitmap.
            IpiDelivery ipi = facade.hypercallIpi(false);
            return Attachment.of(b).withIpiDelivery((from, targets, count, kind) -> b.sendCallFuncIpi(ipi, from, targets, count, kind))
                    .withVcpuHost(b.host.vcpuHost());
        }
    }
}
