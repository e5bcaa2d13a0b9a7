package dev.pvtlb.internal.host;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.VcpuHost;
import dev.pvtlb.stats.Counter;
import java.util.ArrayList;
import java.util.List;

/**
 * The host the guest runs on: pCPUs, the guest's vCPUs and those of other VMs placed on
 * them, and a scheduler giving each runnable vCPU time slices in turn (a vCPU thread under
 * the host's fair scheduler). A vCPU is running, preempted (runnable, off its pCPU) or halted
 * (after HLT; not runnable). The guest's vCPU i sits on pCPU i mod P; other VMs' vCPUs are
 * spread after it, so with V vCPUs per VM on V pCPUs every pCPU holds one vCPU of each VM.
 * Slice ends are choice points (PREEMPT) among {@value #SLICE_POINTS} values in
 * [slice/2, 3*slice/2], so pCPUs drift apart as real hosts' timers do rather than switch in
 * lockstep.
 */
public final class HostModel implements VcpuHost {
    /** Alternatives of each slice length. */
    static final int SLICE_POINTS = 16;

    private final Kernel guest;
    private final Engine engine;
    private final Pcpu[] pcpus;
    private final HostVcpu[] guestVcpus;
    private final List<HostVcpu> all = new ArrayList<>();
    private final VcpuEntryHook hook;
    private final long sliceNs;
    private final long entryNs;

    public HostModel(Kernel guest, VcpuEntryHook hook) {
        this.guest = guest;
        this.engine = guest.engine();
        this.hook = hook;
        this.sliceNs = guest.costs().hostSliceNs;
        this.entryNs = guest.costs().vmexitNs;
        KernelCpu[] cpus = guest.cpus();
        int n = cpus.length;
        int p = guest.config().pcpus() == 0 ? n : guest.config().pcpus();
        int vms = guest.config().vms();
        if ((long) n * vms > 1 << 16) {
            throw new ModelException("host would hold " + ((long) n * vms) + " vCPUs; at most 65536");
        }
        pcpus = new Pcpu[p];
        for (int i = 0; i < p; i++) {
            pcpus[i] = new Pcpu(i);
        }
        guestVcpus = new HostVcpu[n];
        for (int vm = 0; vm < vms; vm++) {
            for (int i = 0; i < n; i++) {
                Pcpu pc = pcpus[(i + vm) % p];
                HostVcpu v = new HostVcpu(vm == 0 ? cpus[i] : null, vm, i, pc);
                pc.vcpus.add(v);
                all.add(v);
                if (vm == 0) {
                    guestVcpus[i] = v;
                }
            }
        }
        // Boot: each pCPU runs its first vCPU; every other one waits, runnable.
        for (Pcpu pc : pcpus) {
            for (HostVcpu v : pc.vcpus) {
                if (pc.current == null) {
                    pc.current = v;
                    v.state = VcpuState.RUNNING;
                } else {
                    v.state = VcpuState.RUNNABLE;
                    if (v.cpu != null) {
                        v.cpu.vcpuPreempt();
                        hook.descheduled(v, true);
                    }
                }
            }
            armTimer(pc);
        }
    }

    public HostVcpu vcpu(int guestCpu) {
        return guestVcpus[guestCpu];
    }

    /** The slice timer of {@code pc} runs while another vCPU may want the pCPU. */
    private void armTimer(Pcpu pc) {
        if (pc.timerArmed || pc.vcpus.size() < 2) {
            return;
        }
        pc.timerArmed = true;
        long gen = ++pc.timerGen;
        long slice = engine.chooseInRange(ChoicePoint.PREEMPT, sliceNs / 2, sliceNs * 3 / 2, SLICE_POINTS);
        engine.at(engine.now() + slice, e -> {
            if (pc.timerGen == gen) {
                sliceEnd(pc);
            }
        });
    }

    /**
     * The current vCPU's slice ended: switch to the next runnable one. Once the guest's tasks
     * have all exited the host only lets guest vCPUs finish their work, so the run can end.
     */
    private void sliceEnd(Pcpu pc) {
        pc.timerArmed = false;
        boolean draining = guest.liveTasks() == 0;
        HostVcpu next = pc.nextRunnable(draining);
        if (next == null || (pc.current != null && pc.current.entering)) {
            if (!draining || next != null) {
                armTimer(pc);
            }
            return;
        }
        HostVcpu prev = pc.current;
        if (prev != null) {
            prev.state = VcpuState.RUNNABLE;
            if (prev.cpu != null) {
                prev.cpu.vcpuPreempt();
                guest.vmstat().inc(Counter.VCPU_PREEMPTIONS);
                hook.descheduled(prev, true);
            }
        }
        enter(pc, next);
        if (!draining || pc.nextRunnable(true) != null) {
            armTimer(pc);
        }
    }

    /** Puts {@code v} on {@code pc}: entry work now, guest code one VM-entry time later. */
    private void enter(Pcpu pc, HostVcpu v) {
        pc.current = v;
        v.state = VcpuState.RUNNING;
        if (v.cpu == null) {
            return;
        }
        v.entering = true;
        hook.entryBegin(v);
        engine.at(engine.now() + entryNs, e -> {
            v.entering = false;
            if (pc.current != v) {
                return;
            }
            hook.entryEnd(v);
            v.cpu.vcpuResume();
        });
    }

    @Override
    public void halted(Cpu view) {
        KernelCpu vcpu = (KernelCpu) view;
        HostVcpu v = guestVcpus[vcpu.id];
        if (v.state != VcpuState.RUNNING) {
            return;
        }
        guest.vmstat().inc(Counter.VMEXITS); // the HLT exit
        v.state = VcpuState.HALTED;
        vcpu.vcpuPreempt();
        hook.descheduled(v, false);
        Pcpu pc = v.pcpu;
        pc.current = null;
        HostVcpu next = pc.nextRunnable(guest.liveTasks() == 0);
        if (next != null) {
            enter(pc, next);
            armTimer(pc);
        }
    }

    @Override
    public void kicked(Cpu view) {
        KernelCpu vcpu = (KernelCpu) view;
        HostVcpu v = guestVcpus[vcpu.id];
        if (v.state != VcpuState.HALTED) {
            return;
        }
        v.state = VcpuState.RUNNABLE;
        Pcpu pc = v.pcpu;
        if (pc.current == null) {
            enter(pc, v);
        } else if (pc.current.cpu == null && guest.liveTasks() == 0) {
            // Draining: the guest's last work preempts another VM at once (the armed timer is void).
            pc.timerGen++;
            sliceEnd(pc);
        }
        armTimer(pc);
    }
}
