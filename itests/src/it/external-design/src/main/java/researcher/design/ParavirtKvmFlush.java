package researcher.design;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.host.KvmHost;
import dev.pvtlb.host.KvmScheduling;
import dev.pvtlb.host.VcpuEvents;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.InjectedBug;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.smp.IpiKind;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.Counter;
import java.util.List;

/**
 * Linux's paravirtual KVM TLB flush, written again from the kernel's sources by a researcher
 * against pvtlb's published SPI alone, as the starting point of a design of their own: if this
 * copy runs figure for figure as pvtlb's shipped {@code kvm} backend, the SPI carries everything a
 * paravirt design with preempted-vCPU handling needs.
 *
 * <p>The guest side (arch/x86/kernel/kvm.c):
 * <ul>
 * <li>{@code kvm_flush_tlb_multi()}: for each CPU of the mask, read its {@code steal_time.preempted}
 * byte; a vCPU the host has marked {@code KVM_VCPU_PREEMPTED} gets {@code KVM_VCPU_FLUSH_TLB} or'ed
 * in (one {@code try_cmpxchg()}) and is dropped from the mask; {@code native_flush_tlb_multi()}
 * IPIs the rest.
 * <li>{@code KVM_FEATURE_PV_SEND_IPI}: IPIs by one {@code KVM_HC_SEND_IPI} hypercall per bitmap.
 * <li>{@code kvm_smp_send_call_func_ipi()} ({@code KVM_FEATURE_PV_SCHED_YIELD}): after the IPIs of a
 * call-function mask, one {@code KVM_HC_SCHED_YIELD} to the first target that is preempted (and,
 * since 5.17, not idle).
 * </ul>
 *
 * <p>The host side (arch/x86/kvm/x86.c), told through {@link VcpuEvents}:
 * {@code kvm_steal_time_set_preempted()} writes {@code KVM_VCPU_PREEMPTED} when a runnable vCPU's
 * thread is put; {@code record_steal_time()} on the next entry clears the byte ({@code xchg} since
 * the CVE-2019-3016 fix; or read at entry's start and zeroed at its end, which loses a request set
 * in between) and, if {@code KVM_VCPU_FLUSH_TLB} was set, {@code kvm_vcpu_flush_tlb_guest()}
 * drops every guest translation of the vCPU. The rest of the KVM host (pause-loop exits, directed
 * yield and its boost, halt polling, paravirtual spinlocks) is pvtlb's host model, asked for with
 * {@link BackendContext#kvmHost}.
 *
 * <p>Its knobs are the shipped backend's under the prefix {@code rkvm.}, with the same defaults (a
 * {@code kernel} preset sets {@code kvm.*} knobs only, so set a release's values explicitly here).
 */
public final class ParavirtKvmFlush extends GuestTableFree implements VcpuEvents {
    static final String NAME = "researcher-kvm";

    static final KnobSpec PV_TLB_FLUSH = KnobSpec.bool("rkvm.pvTlbFlush", true,
            "KVM_FEATURE_PV_TLB_FLUSH: a preempted target is flagged KVM_VCPU_FLUSH_TLB in steal time, not sent an IPI");
    static final KnobSpec HOST_CLEAR = KnobSpec.choice("rkvm.hostClearPreempted", "xchg",
            "record_steal_time(): xchg clears steal_time.preempted atomically at entry; plain-write reads it at entry's "
                    + "start and writes zero at its end (CVE-2019-3016: a request set between them is lost)",
            "xchg", "plain-write");
    static final KnobSpec PLE = KnobSpec.bool("rkvm.ple", true,
            "host: pause-loop exiting, kvm_vcpu_on_spin() yields from a vCPU spinning past the PLE window");
    static final KnobSpec BOOST = KnobSpec.bool("rkvm.boost", true,
            "host: vCPUs being delivered an interrupt are directed-yield candidates (d73eb57b80b9, 5.2)");
    static final KnobSpec BOOST_USER_MODE = KnobSpec.bool("rkvm.boostUserMode", true,
            "host: a vCPU preempted in user mode with an interrupt pending is a candidate (52acd22faa1a, 5.13)");
    static final KnobSpec PV_SCHED_YIELD = KnobSpec.bool("rkvm.pvSchedYield", true,
            "KVM_FEATURE_PV_SCHED_YIELD: KVM_HC_SCHED_YIELD to a preempted target after call-function IPIs (715062970f37, 5.3)");
    static final KnobSpec HALT_POLL = KnobSpec.bool("rkvm.haltPoll", true,
            "host: a halted vCPU alone on its pCPU is polled for host.halt_poll.ns before it is scheduled out");
    static final KnobSpec PV_SPINLOCK = KnobSpec.bool("rkvm.pvSpinlock", true,
            "KVM_FEATURE_PV_UNHALT: spinlock waiters halt (kvm_wait) and are kicked (KVM_HC_KICK_CPU)");
    static final KnobSpec KICK_YIELD = KnobSpec.bool("rkvm.kickYield", true,
            "host: KVM_HC_KICK_CPU yields the unlocker's pCPU to the ready vCPU it woke (266e85a5ec91, 5.4)");
    static final KnobSpec PREEMPTED_ON_HALT = KnobSpec.bool("rkvm.preemptedOnHalt", false,
            "host: steal_time.preempted is set for a halted vCPU put too (before \"do not set st->preempted when going "
                    + "back to user space\", 2022)");
    static final KnobSpec SCHED_YIELD_SKIPS_IDLE = KnobSpec.bool("rkvm.schedYieldSkipsIdle", true,
            "kvm_smp_send_call_func_ipi() yields only to a preempted target that is not idle (9ee83635d872, 5.17)");

    /** Every knob, in the order pvtlb lists them. */
    static final List<KnobSpec> KNOBS = List.of(PV_TLB_FLUSH, HOST_CLEAR, PLE, BOOST, BOOST_USER_MODE, PV_SCHED_YIELD, HALT_POLL,
            PV_SPINLOCK, KICK_YIELD, PREEMPTED_ON_HALT, SCHED_YIELD_SKIPS_IDLE);

    /** The bits of {@code struct kvm_steal_time}'s {@code preempted} byte (arch/x86/include/uapi/asm/kvm_para.h). */
    static final int KVM_VCPU_PREEMPTED = 1 << 0;
    static final int KVM_VCPU_FLUSH_TLB = 1 << 1;

    private final BackendContext context;
    private final KvmHost host;
    private final boolean pvTlbFlush;
    private final boolean clearAtEntryEnd;
    private final boolean pvSchedYield;
    private final boolean preemptedOnHalt;
    private final boolean yieldSkipsIdle;
    /** Each vCPU's steal_time.preempted: a byte of guest memory both the guest and the host write. */
    private final int[] stealTimePreempted;
    /** READ_ONCE(st->preempted) of another vCPU: a same-socket cache-line transfer (the host wrote it). */
    private final long preemptedReadNs;
    /** One hypercall: KVM_HC_SCHED_YIELD. */
    private final long hypercallNs;

    private ParavirtKvmFlush(BackendContext context, Knobs knobs) {
        super(context.knobs());
        this.context = context;
        this.pvTlbFlush = knobs.bool(PV_TLB_FLUSH.name());
        this.clearAtEntryEnd = "plain-write".equals(knobs.get(HOST_CLEAR.name()));
        this.pvSchedYield = knobs.bool(PV_SCHED_YIELD.name());
        this.preemptedOnHalt = knobs.bool(PREEMPTED_ON_HALT.name());
        this.yieldSkipsIdle = knobs.bool(SCHED_YIELD_SKIPS_IDLE.name());
        this.stealTimePreempted = new int[context.nrCpus()];
        this.preemptedReadNs = context.profile().ns("line.same_socket.ns");
        this.hypercallNs = context.profile().ns("hypercall.ns");
        this.host = context.kvmHost(this, new KvmScheduling(knobs.bool(PLE.name()), knobs.bool(BOOST.name()),
                knobs.bool(BOOST_USER_MODE.name()), knobs.bool(HALT_POLL.name()), knobs.bool(PV_SPINLOCK.name()),
                knobs.bool(KICK_YIELD.name())));
    }

    /** pv_ops.mmu.flush_tlb_multi = kvm_flush_tlb_multi when the host offers KVM_FEATURE_PV_TLB_FLUSH. */
    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        if (!pvTlbFlush) {
            context.nativeFlushTlbMulti(cpu, mask, info);
            return;
        }
        cpu.call(KernelPath.oneStep("kvm_flush_tlb_multi", c -> kvmFlushTlbMulti(c, mask, info)));
    }

    /**
     * kvm_flush_tlb_multi() as one step of the calling CPU: the steal-time reads and cmpxchg()s,
     * then native_flush_tlb_multi() on what is left of the mask (its own path, run next).
     */
    private long kvmFlushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        // flushmask = this_cpu_cpumask_var_ptr(__pv_cpu_mask); cpumask_copy(flushmask, cpumask)
        CpuMask flushmask = new CpuMask(mask.nrCpus());
        flushmask.copyFrom(mask);
        long ns = 0;
        for (int id = mask.next(0); id >= 0; id = mask.next(id + 1)) {
            ns += preemptedReadNs;
            int state = stealTimePreempted[id];
            if ((state & KVM_VCPU_PREEMPTED) == 0) {
                continue;
            }
            // try_cmpxchg(&src->preempted, &state, state | KVM_VCPU_FLUSH_TLB): nothing else runs in this step
            stealTimePreempted[id] = state | KVM_VCPU_FLUSH_TLB;
            flushmask.clear(id); // __cpumask_clear_cpu(cpu, flushmask)
            if ((state & KVM_VCPU_FLUSH_TLB) == 0) {
                context.count(Counter.DEFERRED_FLUSHES, 1);
            }
        }
        context.nativeFlushTlbMulti(cpu, flushmask, info);
        return ns;
    }

    /**
     * smp_ops.send_call_func_ipi = kvm_smp_send_call_func_ipi: the IPIs (by KVM_HC_SEND_IPI), then
     * KVM_HC_SCHED_YIELD to the first preempted (busy) target. Other IPIs (reschedule, the
     * single-target call) are only sent.
     */
    long sendIpi(IpiDelivery pvSendIpi, Cpu from, Cpu[] targets, int count, IpiKind kind) {
        long ns = pvSendIpi.send(from, targets, count, kind);
        if (pvSchedYield && kind == IpiKind.CALL_FUNCTION_MASK) {
            // The rest of kvm_smp_send_call_func_ipi() runs after the IPIs' hypercall has returned.
            from.call(new SchedYield(java.util.Arrays.copyOf(targets, count)));
        }
        return ns;
    }

    /**
     * The look for a preempted target once the IPIs are out, then KVM_HC_SCHED_YIELD: the host's
     * kvm_sched_yield() acts when the hypercall has taken its time (the next step).
     */
    private final class SchedYield extends KernelPath {
        private final Cpu[] targets;
        private Cpu target;

        SchedYield(Cpu[] targets) {
            this.targets = targets;
        }

        @Override
        public long step(Cpu cpu) {
            if (pc == 1) {
                cpu.ret();
                host.schedYield(cpu, target);
                return 0;
            }
            for (Cpu t : targets) {
                boolean busy = !yieldSkipsIdle || !t.idle();
                if (busy && (stealTimePreempted[t.id()] & KVM_VCPU_PREEMPTED) != 0) {
                    target = t;
                    context.count(Counter.HYPERCALLS, 1);
                    pc = 1;
                    return hypercallNs;
                }
            }
            cpu.ret();
            return 0;
        }

        @Override
        public String name() {
            return "kvm_smp_send_call_func_ipi";
        }
    }

    /** kvm_arch_vcpu_put() -> kvm_steal_time_set_preempted(). */
    @Override
    public void descheduled(Cpu vcpu, boolean wasRunnable) {
        if (wasRunnable || preemptedOnHalt) {
            stealTimePreempted[vcpu.id()] = KVM_VCPU_PREEMPTED;
        }
    }

    /** vcpu_enter_guest() -> record_steal_time(): read (xchg: and clear) the byte, flush on request. */
    @Override
    public void entryBegin(Cpu vcpu) {
        int state = stealTimePreempted[vcpu.id()];
        if (!clearAtEntryEnd) {
            stealTimePreempted[vcpu.id()] = 0;
        }
        if ((state & KVM_VCPU_FLUSH_TLB) != 0 && context.knobs().bug != InjectedBug.KVM_ENTRY_DROPS_FLUSH) {
            vcpu.flushAllAsids(); // kvm_vcpu_flush_tlb_guest()
            context.count(Counter.HYPERVISOR_FLUSHES, 1);
        }
    }

    /** With plain-write: record_steal_time()'s copy, preempted = 0, reaches guest memory only now. */
    @Override
    public void entryEnd(Cpu vcpu) {
        if (clearAtEntryEnd) {
            stealTimePreempted[vcpu.id()] = 0;
        }
    }

    /** The ServiceLoader entry (META-INF/services/dev.pvtlb.pvops.PvBackend). */
    public static final class Provider extends BackendProvider {
        public Provider() {
            super(NAME, "KVM guest, re-implemented through the SPI: IPIs by hypercall, preempted vCPUs flagged "
                    + "KVM_VCPU_FLUSH_TLB and flushed by the host at their next entry", true, KNOBS.toArray(KnobSpec[]::new));
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            ParavirtKvmFlush design = new ParavirtKvmFlush(context, knobs);
            IpiDelivery pvSendIpi = context.hypercallIpi(false);
            return Attachment.of(design)
                    .withIpiDelivery((from, targets, count, kind) -> design.sendIpi(pvSendIpi, from, targets, count, kind))
                    .withVcpuHost(design.host.vcpuHost());
        }
    }
}
