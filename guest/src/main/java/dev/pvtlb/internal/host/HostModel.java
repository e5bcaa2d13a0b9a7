package dev.pvtlb.internal.host;

import dev.pvtlb.host.KvmHost;
import dev.pvtlb.host.VcpuEvents;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.sim.Timer;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.HostKnobs;
import dev.pvtlb.smp.VcpuHost;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;

/**
 * The host the guest runs on: pCPUs, the guest's vCPUs and those of other VMs placed on
 * them, and the host's fair scheduler running vCPU threads (kernel/sched/fair.c, the rules that
 * matter here). A vCPU is running, preempted (runnable, off its pCPU) or halted (after HLT; not
 * runnable). The guest's vCPU i sits on pCPU i mod P; other VMs' vCPUs are spread after it, so
 * with V vCPUs per VM on V pCPUs every pCPU holds one vCPU of each VM. They stay there unless
 * {@code host.balance=idle} moves them to idle pCPUs (wake-up placement, newly idle balancing).
 *
 * <p>Each pCPU's queue is ordered by virtual runtime: a slice end (the tick finding the slice
 * used up) switches to the runnable vCPU with the least virtual runtime if it has run less than
 * the current one (pick_next_entity()); slice lengths are choice points (PREEMPT) among
 * {@value #SLICE_POINTS} values in [slice/2, 3*slice/2], so pCPUs drift apart as real hosts'
 * timers do. A vCPU that halts keeps its lag behind the queue and gets it back when woken
 * (place_entity()); it preempts the current vCPU at once only when that one is no longer
 * eligible (has run past it) and its own deadline is earlier (check_preempt_wakeup_fair(),
 * EEVDF with RUN_TO_PARITY). yield_to() makes its target the pCPU's next buddy and reschedules
 * that pCPU, so the target runs next; the yielder gives its own pCPU to another waiting vCPU;
 * both only while the vCPU picked is eligible (not ahead of its queue's average virtual runtime).
 * With {@link KvmSpin} the host also has KVM's pause-loop exits, directed yield and halt polling.
 */
public final class HostModel implements VcpuHost, KvmHost {
    /** Alternatives of each slice length. */
    static final int SLICE_POINTS = 16;
    /** The steps of its vCPU at which the explorer may end the first slice of a pCPU. */
    static final int STEP_POINTS = 64;

    private final Kernel guest;
    private final Engine engine;
    private final Pcpu[] pcpus;
    /** Each VM's vCPUs, by vCPU index; VM 0 is the guest a run reports on. */
    private final HostVcpu[][] vmVcpus;
    /** Each VM's backend hook; null for a VM whose vCPUs are CPU-bound threads. */
    private final VcpuEvents[] hooks;
    private final KvmSpin kvm;
    /** KVM's per-vCPU halt-poll window rules (kvm.haltPoll); null when the host does not poll. */
    private final HaltPolling haltPolling;
    private final long sliceNs;
    /** host.scheduler=cfs: CFS's wake-up placement, preemption and slice; null under EEVDF. */
    private final CfsWakeup cfs;
    private final long entryNs;
    /**
     * A vCPU thread taking a pCPU: the host's switch to it (context_switch(), then vcpu_load()
     * through the preempt notifier, kvm_sched_in()) before its VM entry. The profile's
     * context_switch.ns stands for the host's switch.
     */
    private final long switchNs;
    /** host.balance=idle: wake-up placement on idle pCPUs and newly idle balancing. */
    private final boolean balance;
    /** host.balance=periodic: the domains and intervals of balancing between busy pCPUs; null without it. */
    private final PeriodicBalance periodic;
    /** Each pCPU's armed balance of each domain (host.balance=periodic), cancelled when the guest's tasks have all exited. */
    private final Timer[][] balanceTimers;
    /** kvm->last_boosted_vcpu of each VM. */
    final int[] lastBoostedVcpu;
    /** host.topology has SMT threads: a vCPU shares its pCPU's core with the vCPUs on the sibling pCPUs. */
    private final boolean smtHost;
    /** True while {@link #kick} wakes a vCPU from the kicker's pCPU. */
    private boolean kickInProgress;

    public HostModel(Kernel guest, VcpuEvents hook) {
        this(guest, hook, null);
    }

    /** {@code kvm}: KVM's spin and halt mechanisms, or null for a host without them. */
    public HostModel(Kernel guest, VcpuEvents hook, KvmSpin kvm) {
        this.guest = guest;
        this.engine = guest.engine();
        this.kvm = kvm;
        this.haltPolling = kvm != null && kvm.mechanisms().haltPoll() && guest.costs().haltPollNs > 0
                ? new HaltPolling(guest.costs().haltPollNs, guest.costs().haltPollGrowStartNs, guest.costs().haltPollGrow,
                        guest.costs().haltPollShrink)
                : null;
        this.sliceNs = guest.costs().hostSliceNs;
        this.entryNs = guest.costs().vmexitNs;
        this.switchNs = guest.costs().contextSwitchNs;
        KernelCpu[] cpus = guest.cpus();
        int n = cpus.length;
        int p = guest.config().pcpus() == 0 ? n : guest.config().pcpus();
        HostKnobs knobs = new HostKnobs(guest.knobValues());
        this.cfs = knobs.cfs ? new CfsWakeup(p, guest.costs()) : null;
        this.balance = knobs.balanceIdle;
        int vms = guest.config().vms();
        if ((long) n * vms > 1 << 16) {
            throw new ModelException("host would hold " + ((long) n * vms) + " vCPUs; at most 65536");
        }
        hooks = new VcpuEvents[vms];
        hooks[0] = hook;
        lastBoostedVcpu = new int[vms];
        java.util.Arrays.fill(lastBoostedVcpu, -1);
        vmVcpus = new HostVcpu[vms][n];
        pcpus = new Pcpu[p];
        dev.pvtlb.smp.Topology topology = guest.config().hostTopology();
        HostCaches caches = topology == null ? null : new HostCaches(topology, guest.costs(), vms);
        for (int i = 0; i < p; i++) {
            pcpus[i] = new Pcpu(i, cfs, topology, caches);
        }
        this.smtHost = topology != null && topology.siblingsOf(0).length > 1 && guest.costs().smtSharePermille > 1000;
        if (smtHost) {
            for (Pcpu pc : pcpus) {
                pc.siblings = java.util.Arrays.stream(topology.otherThreadsOf(pc.id)).mapToObj(s -> pcpus[s])
                        .toArray(Pcpu[]::new);
            }
        }
        this.periodic = knobs.busyFactor > 0 && p > 1 ? new PeriodicBalance(pcpus, topology, knobs.busyFactor) : null;
        this.balanceTimers = new Timer[periodic == null ? 0 : p][];
        for (int vm = 0; vm < vms; vm++) {
            for (int i = 0; i < n; i++) {
                Pcpu pc = pcpus[(i + vm) % p];
                HostVcpu v = new HostVcpu(vm == 0 ? cpus[i] : null, vm, i, pc);
                v.pleWindowNs = guest.costs().pleWindowNs;
                shareHostCore(v);
                pc.vcpus.add(v);
                pc.seat(v);
                vmVcpus[vm][i] = v;
            }
        }
        // others=cpu-bound:N: the other VMs' vCPUs past the first N idle in HLT for the whole run
        // (their guests' idle loops; "stress --cpu N" keeps only N of them busy).
        int busy = guest.config().otherBusyVcpus();
        if (busy > 0) {
            for (int vm = 1; vm < vms; vm++) {
                for (int i = busy; i < n; i++) {
                    vmVcpus[vm][i].state = VcpuState.HALTED;
                }
            }
        }
        // Boot: each pCPU runs its first vCPU; every other one waits, runnable.
        for (Pcpu pc : pcpus) {
            for (HostVcpu v : pc.vcpus) {
                if (v.state == VcpuState.HALTED) {
                    continue;
                }
                if (pc.current == null) {
                    pc.current = v;
                    v.state = VcpuState.RUNNING;
                    v.deadline = sliceNs;
                } else {
                    v.state = VcpuState.RUNNABLE;
                    v.preempted = true;
                    v.ready = true;
                    if (v.cpu != null) {
                        v.cpu.runState().preempt();
                        hook.descheduled(v.cpu, true);
                    }
                }
            }
            armTimer(pc);
            sliceEndByStep(pc);
        }
        if (periodic != null) {
            for (Pcpu pc : pcpus) {
                balanceTimers[pc.id] = new Timer[periodic.domainsOf(pc.id)];
                for (int d = 0; d < periodic.domainsOf(pc.id); d++) {
                    int domain = d;
                    balanceTimers[pc.id][d] = engine.timer(periodic.firstAt(pc.id, p, d), e -> balanceBusy(pc, domain));
                }
            }
        }
    }

    /**
     * Exploring, the slice that is running when the scenario starts ends at a step of its vCPU the
     * explorer chooses (a PREEMPT choice: none, or after 1 .. {@value #STEP_POINTS} steps): the
     * scenario starts at an unknown point of the host's slice, so the host's tick may come at any
     * instruction of the guest, whatever the slice's length. Later slices run their length.
     */
    private void sliceEndByStep(Pcpu pc) {
        HostVcpu v = pc.current;
        if (!engine.exploring() || v == null || v.cpu == null || pc.vcpus.size() < 2) {
            return;
        }
        int steps = engine.choose(ChoicePoint.PREEMPT, STEP_POINTS + 1);
        if (steps > 0) {
            v.cpu.runState().preemptAfterSteps(steps, () -> {
                if (pc.current == v && !v.entering && v.state == VcpuState.RUNNING && !v.polling) {
                    voidTimer(pc);
                    sliceEnd(pc);
                }
            });
        }
    }

    /**
     * Every task of the primary guest and of its co-guests has exited: from then on the host only
     * lets the primary's vCPUs finish their work, so the run can end. A co-guest whose tasks still
     * run is scheduled as before: a co-guest vCPU spinning on another one's answer (a flush IPI)
     * would otherwise spin for ever behind pCPUs that no longer pick its target.
     */
    private boolean draining() {
        if (guest.liveTasks() != 0) {
            return false;
        }
        for (int vm = 1; vm < vmVcpus.length; vm++) {
            KernelCpu c = vmVcpus[vm][0].cpu;
            if (c != null && c.kernel().liveTasks() != 0) {
                return false;
            }
        }
        return true;
    }

    /** vCPU {@code guestCpu} of the primary guest (VM 0). */
    public HostVcpu vcpu(int guestCpu) {
        return vmVcpus[0][guestCpu];
    }

    /** The host's vCPU behind guest CPU {@code cpu}, of whichever guest (primary or co-guest) it belongs to. */
    public HostVcpu vcpu(Cpu cpu) {
        KernelCpu k = (KernelCpu) cpu;
        return vmVcpus[k.kernel().vmIndex()][k.id];
    }

    /** The vCPUs of VM {@code vm}, by index. */
    HostVcpu[] vcpusOf(int vm) {
        return vmVcpus[vm];
    }

    /**
     * The host model a backend attached to {@code guest} runs on: a new host for a primary guest;
     * for a co-guest, its primary's host, which from then on runs the co-guest's vCPUs as VM
     * {@code guest.vmIndex()} (instead of CPU-bound threads), with {@code hook} as that VM's
     * backend. {@code kvm} is the primary's choice for the whole host.
     */
    public static HostModel attach(Kernel guest, VcpuEvents hook, KvmSpin kvm) {
        Kernel primary = guest.primaryGuest();
        if (primary == null) {
            return new HostModel(guest, hook, kvm);
        }
        if (!(primary.vcpuHost() instanceof HostModel h)) {
            throw new IllegalStateException("co-guest of a guest with no host model");
        }
        h.join(guest, hook);
        return h;
    }

    /** Co-guest {@code g}'s vCPUs take the places of VM {@code g.vmIndex()}'s CPU-bound threads. */
    private void join(Kernel g, VcpuEvents hook) {
        int vm = g.vmIndex();
        if (hooks[vm] != null) {
            throw new IllegalStateException("VM " + vm + " joined twice");
        }
        hooks[vm] = hook;
        KernelCpu[] cpus = g.cpus();
        for (int i = 0; i < cpus.length; i++) {
            HostVcpu v = vmVcpus[vm][i];
            v.cpu = cpus[i];
            shareHostCore(v);
            v.pcpu.seat(v);
            if (v.state != VcpuState.RUNNING) {
                v.cpu.runState().preempt();
                hook.descheduled(v.cpu, true);
            }
        }
    }

    /**
     * Under an SMT host topology, {@code v}'s steps run at its physical core's pace: slower while a
     * vCPU of any VM executes on a sibling pCPU of the one it is on (SmtSharing, smt.share.factor).
     * Executing is the guest's: a vCPU halted, spinning on PAUSE, or switched out leaves the core to
     * its sibling; the host's own switch and VM entry are not counted.
     */
    private void shareHostCore(HostVcpu v) {
        if (smtHost && v.cpu != null) {
            v.cpu.stepTime().shareHostCore(() -> siblingExecuting(v), now -> coreChanged(v.pcpu, now), guest.costs().smtSharePermille);
        }
    }

    /** Whether a vCPU executes on a sibling of {@code v}'s pCPU: a guest's that executes, or another VM's CPU-bound thread. */
    private static boolean siblingExecuting(HostVcpu v) {
        for (Pcpu s : v.pcpu.siblings) {
            HostVcpu c = s.current;
            if (c != null && c != v && (c.cpu == null || c.cpu.executing())) {
                return true;
            }
        }
        return false;
    }

    /** What executes on {@code pc} changed at {@code now}: the vCPUs on its sibling pCPUs change pace. */
    private static void coreChanged(Pcpu pc, long now) {
        for (Pcpu s : pc.siblings) {
            HostVcpu c = s.current;
            if (c != null && c.cpu != null) {
                c.cpu.stepTime().rescale(now);
            }
        }
    }

    /**
     * The slice timer of {@code pc} runs while another vCPU may want the pCPU. Under CFS a slice
     * armed while fewer vCPUs were runnable is cut to the share of the vCPUs runnable now:
     * check_preempt_tick() recomputes sched_slice() from nr_running at every tick, so a vCPU woken
     * next to a lone runner waits at most the slice of two, not the period one had to itself.
     */
    private void armTimer(Pcpu pc) {
        if (pc.vcpus.size() < 2) {
            return;
        }
        int nr = pc.nrRunning();
        if (pc.sliceTimer != null) {
            if (cfs != null && nr > pc.sliceNr) {
                // The same draw, scaled from the slice of the vCPUs runnable then to the slice of those runnable now.
                long slice = (pc.sliceEndsAt - pc.sliceArmedAt) * sliceFor(nr) / sliceFor(pc.sliceNr);
                pc.sliceNr = nr;
                long end = Math.max(engine.now(), pc.sliceArmedAt + slice);
                if (end < pc.sliceEndsAt) {
                    engine.cancel(pc.sliceTimer);
                    sliceTimer(pc, end);
                }
            }
            return;
        }
        long base = sliceFor(nr);
        long slice = engine.chooseInRange(ChoicePoint.PREEMPT, base / 2, base * 3 / 2, SLICE_POINTS);
        if (pc.current != null) {
            pc.current.deadline = pc.current.vruntime + slice;
        }
        pc.sliceArmedAt = engine.now();
        pc.sliceNr = nr;
        sliceTimer(pc, engine.now() + slice);
    }

    private void sliceTimer(Pcpu pc, long end) {
        pc.sliceEndsAt = end;
        pc.sliceTimer = engine.timer(end, e -> {
            pc.sliceTimer = null;
            sliceEnd(pc);
        });
    }

    /** Cancels the armed slice timer of {@code pc} (the current vCPU changed outside a slice end). */
    private void voidTimer(Pcpu pc) {
        engine.cancel(pc.sliceTimer);
        pc.sliceTimer = null;
    }

    /**
     * The current vCPU's slice ended: switch to the runnable vCPU with the least virtual runtime,
     * unless the current one has run less. Once the guest's tasks have all exited the host only
     * lets guest vCPUs finish their work, so the run can end.
     */
    private void sliceEnd(Pcpu pc) {
        boolean draining = draining();
        pc.account(engine.now());
        HostVcpu next = pc.nextRunnable(draining);
        HostVcpu prev = pc.current;
        if (next == null || (prev != null && prev.entering)
                || (!draining && prev != null && !pc.buddyMayRun(next) && next.vruntime > prev.vruntime)) {
            if (!draining || next != null) {
                armTimer(pc);
            }
            return;
        }
        switchTo(pc, next);
        if (!draining || pc.nextRunnable(true) != null) {
            armTimer(pc);
        }
    }

    /** Takes the current vCPU of {@code pc} off (still runnable) and enters {@code next}. */
    private void switchTo(Pcpu pc, HostVcpu next) {
        HostVcpu prev = pc.current;
        boolean cpuBoundLeaves = prev != null && prev.cpu == null && next.cpu != null;
        if (prev != null) {
            prev.state = VcpuState.RUNNABLE;
            prev.offCpuSince = engine.now();
            // kvm_sched_out(): current->on_rq, so vcpu->preempted and vcpu->ready are set.
            prev.preempted = true;
            prev.ready = true;
            engine.cancel(prev.pleTimer); // its spin, if any, ended
            if (prev.cpu != null) {
                prev.cpu.runState().preempt();
                prev.cpu.kernel().vmstat().inc(Counter.VCPU_PREEMPTIONS);
                hooks[prev.vm].descheduled(prev.cpu, true);
            }
        }
        enter(pc, next);
        if (cpuBoundLeaves) {
            coreChanged(pc, engine.now()); // nothing executes on pc until next's entry ends
        }
    }

    /** Puts {@code v} on {@code pc}: the host's switch to its thread, then its VM entry ({@link #vmEntry}). */
    private void enter(Pcpu pc, HostVcpu v) {
        if (pc.nextBuddy == v) {
            pc.nextBuddy = null; // clear_buddies() when picked
        }
        pc.account(engine.now());
        pc.current = v;
        v.state = VcpuState.RUNNING;
        v.deadline = v.vruntime + sliceNs;
        // kvm_sched_in(): vcpu->preempted and vcpu->ready cleared; vmx_vcpu_load() shrinks the PLE
        // window back to ple_window (ple_window_shrink = 0).
        v.preempted = false;
        v.ready = false;
        v.pleWindowNs = guest.costs().pleWindowNs;
        engine.cancel(v.pleTimer);
        haltEnded(v); // the thread of a vCPU that halted runs again: kvm_vcpu_block() returns
        if (v.inSpinLoop) {
            KvmSpin.leaveSpinLoop(v); // back from the schedule() in its directed yield
        }
        if (v.cpu == null) {
            coreChanged(pc, engine.now()); // another VM's CPU-bound thread executes from now
            return;
        }
        v.entering = true;
        // The host's switch to the thread first; then vcpu_enter_guest(), whose record_steal_time()
        // reads and clears steal_time.preempted around the VM entry (entryBegin .. entryEnd).
        engine.at(engine.now() + switchNs, e -> {
            if (pc.current != v) {
                v.entering = false;
                return;
            }
            vmEntry(pc, v);
        });
    }

    /** vcpu_enter_guest() of {@code v}, switched in on {@code pc}: guest code runs one VM-entry time later. */
    private void vmEntry(Pcpu pc, HostVcpu v) {
        VcpuEvents hook = hooks[v.vm];
        hook.entryBegin(v.cpu);
        engine.at(engine.now() + entryNs, e -> {
            v.entering = false;
            if (pc.current != v) {
                return;
            }
            hook.entryEnd(v.cpu);
            v.cpu.runState().resume();
            if (pc.nextBuddy != null) {
                resched(pc); // a yield_to() targeted this pCPU while the entry was in progress
            } else if (v.cpu.isSpinning()) {
                spinning(v.cpu);
            }
        });
    }

    /**
     * resched_curr() then schedule() on {@code pc}: the next buddy if one is set and may run ahead
     * ({@link Pcpu#mayRunAhead}), else a waiting vCPU that has run less than the current one (or,
     * when {@code yielding}, any waiting one that may run ahead: EEVDF's yield_task_fair() pushes
     * the current vCPU's deadline behind the others', CFS's makes it the skip buddy).
     */
    private void resched(Pcpu pc, boolean yielding) {
        HostVcpu cur = pc.current;
        if (cur != null && cur.entering) {
            return; // the entry's end looks again
        }
        pc.account(engine.now());
        HostVcpu next = pc.nextRunnable(draining());
        if (next == null || (cur != null && !pc.buddyMayRun(next)
                && (yielding ? !pc.mayRunAhead(next) : next.vruntime >= cur.vruntime))) {
            return;
        }
        voidTimer(pc);
        switchTo(pc, next);
        armTimer(pc);
    }

    private void resched(Pcpu pc) {
        resched(pc, false);
    }

    /**
     * yield_to(target, preempt = true) from kvm_vcpu_yield_to() (kernel/sched/core.c,
     * yield_to_task_fair()): fails when the target is on a CPU or not runnable; else the target
     * becomes its pCPU's next buddy, that pCPU reschedules ({@link #reschedRemote} when it is
     * another), and the yielder's own pCPU runs another waiting vCPU if there is one
     * (yield_task_fair(), then schedule()).
     */
    boolean yieldTo(HostVcpu me, HostVcpu target) {
        if (target.state != VcpuState.RUNNABLE) {
            return false;
        }
        me.cpu.kernel().vmstat().inc(Counter.DIRECTED_YIELDS);
        Pcpu tp = target.pcpu;
        tp.nextBuddy = target;
        if (tp != me.pcpu) {
            resched(me.pcpu, true);
            reschedRemote(tp);
        } else {
            resched(tp, true);
        }
        return true;
    }

    /**
     * resched_curr() of another pCPU: smp_send_reschedule()'s IPI reaches it an IPI latency later,
     * and its vCPU exits to the host and schedules then. Until it does, its vCPU runs on, and
     * another yield_to() only replaces the next buddy (need_resched is already set, so no second
     * IPI): of yields that come close together, the last one's target is switched in.
     */
    private void reschedRemote(Pcpu pc) {
        if (pc.reschedIpi != null) {
            return;
        }
        Costs c = guest.costs();
        long latency = c.ipiLatencyNs(engine, ChoicePoint.IPI_LATENCY);
        pc.reschedIpi = engine.timer(engine.now() + latency, e -> {
            pc.reschedIpi = null;
            resched(pc);
        });
    }

    // ------------------------------------------------------------------ balancing: host.balance=idle
    /**
     * rebalance_domains() of domain {@code d} on {@code pc} (host.balance=periodic): a busy pCPU pulls
     * the waiting vCPUs {@link PeriodicBalance} picks from the domain's busiest pCPU (an idle one
     * pulls by its newly idle balance). Again after the domain's busy interval, until the guest a
     * run reports on has no task left ({@link #stopBalancing}).
     */
    private void balanceBusy(Pcpu pc, int d) {
        long now = engine.now();
        if (pc.current != null) {
            for (HostVcpu v : periodic.pulls(pc, d, now, guest.costs().migrationCostNs)) {
                v.pcpu.account(now);
                IdleBalance.migrate(v, pc);
            }
            armTimer(pc);
        }
        balanceTimers[pc.id][d] = engine.timer(now + periodic.interval(pc.id, d), e -> balanceBusy(pc, d));
    }

    /** The pCPU of the vCPU whose IPI or kick wakes guest CPU {@code vcpu} (null: none, or not a vCPU of this host). */
    private Pcpu wakerPcpu(KernelCpu vcpu) {
        dev.pvtlb.smp.Cpu w = vcpu.interrupts().waker();
        return w instanceof KernelCpu k && k.kernel().vcpuHost() == this ? vcpu(k).pcpu : null;
    }

    /** The guest's last task has exited (its vCPU halts): no balance is due any more, so none holds the run's clock open. */
    private void stopBalancing() {
        for (Timer[] own : balanceTimers) {
            for (Timer t : own) {
                engine.cancel(t);
            }
        }
    }


    /**
     * newidle_balance() on {@code pc}, which has nothing to run: the waiting vCPU {@link IdleBalance}
     * picks moves here and runs; if only cache-hot ones wait, {@code pc} looks again when the first
     * of them cools (standing for the periodic and nohz idle balance, ASSUMED at once: Linux runs it
     * at the busy pCPU's next tick after that, within 1 ms at HZ=1000).
     */
    private void pullWaiting(Pcpu pc) {
        long now = engine.now();
        IdleBalance.Pull pull = IdleBalance.pick(pcpus, pc, now, draining(), guest.costs().migrationCostNs);
        if (pull.vcpu() == null) {
            long coolAt = pull.coolAt();
            if (coolAt != Long.MAX_VALUE && coolAt > pc.balanceRetryAt) {
                pc.balanceRetryAt = coolAt;
                engine.at(coolAt, e -> {
                    if (pc.current == null && pc.nrRunning() == 0) {
                        pullWaiting(pc);
                    }
                });
            }
            return;
        }
        pull.vcpu().pcpu.account(now);
        IdleBalance.migrate(pull.vcpu(), pc);
        voidTimer(pc);
        enter(pc, pull.vcpu());
        armTimer(pc);
    }

    /**
     * EEVDF: the profile's base slice ({@code host.slice.ns}, sysctl_sched_base_slice); CFS: the
     * sched_slice() of one of two threads, half the scaled sched_latency (12 ms on 8 or more pCPUs).
     */
    @Override
    public long sharedSliceNs() {
        return sliceFor(2);
    }

    /** The slice of one of {@code nrRunning} vCPU threads on a pCPU: EEVDF's base slice, CFS's sched_slice(). */
    private long sliceFor(int nrRunning) {
        return cfs == null ? sliceNs : cfs.slice(nrRunning);
    }

    // ------------------------------------------------------------------ spinning: KVM's PLE

    @Override
    public boolean pvSpinlock() {
        return kvm != null && kvm.mechanisms().pvSpinlock();
    }

    /** A guest vCPU started to spin: with PLE, it exits after its PLE window unless the wait ends first. */
    @Override
    public void spinning(Cpu view) {
        if (kvm == null || !kvm.mechanisms().ple()) {
            return;
        }
        HostVcpu v = vcpu(view);
        if (!v.executing()) {
            return; // its entry's end looks again
        }
        engine.cancel(v.pleTimer); // the last spin's, if it has not fired
        v.pleTimer = engine.timer(engine.now() + v.pleWindowNs, e -> {
            if (v.executing() && v.cpu.isSpinning()) {
                pauseLoopExit(v);
            }
        });
    }

    /**
     * handle_pause() (vmx.c): the exit costs a VM exit and entry, the window grows
     * (grow_ple_window()), and kvm_vcpu_on_spin() looks for a vCPU to yield to. The spin goes
     * on after the exit and is watched again with the grown window.
     */
    private void pauseLoopExit(HostVcpu v) {
        v.cpu.kernel().vmstat().inc(Counter.PLE_EXITS);
        v.cpu.kernel().vmstat().inc(Counter.VMEXITS);
        v.pleWindowNs = Math.min(v.pleWindowNs * guest.costs().pleWindowGrow, Long.MAX_VALUE / 4);
        v.cpu.injectHostWork(entryNs, TimeCategory.STOLEN, "handle_pause");
        kvm.onSpin(this, v);
    }

    @Override
    public VcpuHost vcpuHost() {
        return this;
    }

    /** KVM_HC_SCHED_YIELD from guest vCPU {@code from} naming guest vCPU {@code to}; true when the host yielded. */
    @Override
    public boolean schedYield(Cpu from, Cpu to) {
        return KvmSpin.schedYield(this, vcpu(from), vcpu(to));
    }

    // ------------------------------------------------------------------ halt and wake-up

    @Override
    public void halted(Cpu view) {
        KernelCpu vcpu = (KernelCpu) view;
        HostVcpu v = vcpu(vcpu);
        if (v.state != VcpuState.RUNNING) {
            return;
        }
        vcpu.kernel().vmstat().inc(Counter.VMEXITS); // the HLT exit
        if (periodic != null && guest.liveTasks() == 0) {
            stopBalancing();
        }
        Pcpu pc = v.pcpu;
        pc.account(engine.now());
        v.state = VcpuState.HALTED;
        engine.cancel(v.pleTimer);
        vcpu.runState().preempt();
        long min = pc.leftmostVruntime(v);
        // dequeue_entity(): the lag is kept for place_entity(), within one slice either way.
        v.lag = min == Long.MAX_VALUE ? 0 : Math.clamp(min - v.vruntime, -sliceNs, sliceNs);
        v.haltedAt = engine.now();
        if (haltPolling != null && v.haltPollNs > 0 && !pc.othersRunnable(v)) {
            // kvm_vcpu_block(): poll for the vCPU's own window while its thread is the pCPU's only runnable task.
            v.polling = true;
            long gen = ++v.pollGen;
            engine.at(engine.now() + v.haltPollNs, e -> {
                if (v.polling && v.pollGen == gen) {
                    stopPolling(v);
                }
            });
            return;
        }
        sleepOff(v);
    }

    /** The end of kvm_vcpu_block() for {@code v} if it halted: its poll window adapts to how long the halt lasted. */
    private void haltEnded(HostVcpu v) {
        if (v.haltedAt >= 0) {
            if (haltPolling != null) {
                v.haltPollNs = haltPolling.adapt(v.haltPollNs, engine.now() - v.haltedAt);
            }
            v.haltedAt = -1;
        }
    }

    /** The poll of a halted vCPU ended without a wake-up (or another vCPU wants the pCPU): schedule. */
    private void stopPolling(HostVcpu v) {
        v.polling = false;
        v.pcpu.account(engine.now());
        sleepOff(v);
    }

    /**
     * kvm_sched_out() of halted vCPU {@code v}, not runnable: its thread sleeps and its pCPU runs
     * the next waiting vCPU or, with host.balance=idle, pulls one from another pCPU.
     */
    private void sleepOff(HostVcpu v) {
        Pcpu pc = v.pcpu;
        hooks[v.vm].descheduled(v.cpu, false);
        v.offCpuSince = engine.now();
        pc.current = null;
        pc.updateMinVruntime(); // dequeue_entity(): the queue's minimum without the sleeper
        HostVcpu next = pc.nextRunnable(draining());
        if (next != null) {
            voidTimer(pc);
            enter(pc, next);
            armTimer(pc);
        } else if (balance) {
            pullWaiting(pc);
        }
    }

    /** KVM_HC_KICK_CPU's kvm_sched_yield(vcpu, a1) (266e85a5ec91): only when the kicked vCPU is ready. */
    @Override
    public void kickReturned(Cpu from, Cpu kicked) {
        if (kvm != null && kvm.mechanisms().kickYield()) {
            schedYield(from, kicked);
        }
    }

    /**
     * The wake-up of {@code halted} runs on {@code from}'s pCPU (kvm_vcpu_kick() in the hypercall):
     * {@link #kicked} sees {@link #kickInProgress} and leaves a preemption of another pCPU to its
     * reschedule IPI. A guest IPI's wake-up needs no such delay: its flight is the IPI's, and the
     * posted-interrupt wake-up handler (pi_wakeup_handler()) wakes the vCPU on its own pCPU.
     */
    @Override
    public void kick(Cpu from, Cpu halted) {
        kickInProgress = true;
        try {
            halted.wake();
        } finally {
            kickInProgress = false;
        }
    }

    @Override
    public void kicked(Cpu view) {
        KernelCpu vcpu = (KernelCpu) view;
        HostVcpu v = vcpu(vcpu);
        if (v.state != VcpuState.HALTED) {
            return;
        }
        Pcpu pc = v.pcpu;
        if (v.polling) {
            // Woken within halt_poll_ns: the vCPU thread never left its pCPU; no schedule, no entry.
            v.polling = false;
            v.state = VcpuState.RUNNING;
            haltEnded(v);
            vcpu.kernel().vmstat().inc(Counter.HALT_POLL_WAKEUPS);
            vcpu.runState().resume();
            return;
        }
        // kvm_vcpu_wake_up(): runnable, and vcpu->ready (d73eb57b80b9).
        v.state = VcpuState.RUNNABLE;
        v.ready = true;
        if (balance && pc.current != null) {
            Pcpu to = periodic != null ? IdleBalance.wakeAffine(pc, wakerPcpu(vcpu)) : pc;
            Pcpu idle = to.current == null && to.nrRunning() == 0 ? to : IdleBalance.idlePcpuAfter(pcpus, to);
            to = idle != null ? idle : to;
            if (to != pc) {
                IdleBalance.migrate(v, to);
                pc = to;
            }
        }
        HostVcpu cur = pc.current;
        if (cur != null && cur.polling) {
            stopPolling(cur); // need_resched(): another task became runnable on the pCPU
            cur = pc.current;
        }
        pc.account(engine.now());
        if (cfs != null) {
            v.vruntime = cfs.place(v.vruntime, pc.minVruntime()); // place_entity(), against cfs_rq->min_vruntime
        } else {
            long min = pc.leftmostVruntime(v);
            v.vruntime = (min != Long.MAX_VALUE ? min : pc.minVruntime()) - v.lag; // place_entity(): an empty queue's is its min_vruntime
        }
        if (cur == null) {
            voidTimer(pc);
            enter(pc, v);
        } else if (cur.vm != 0 && draining()) {
            // Draining: the guest's last work preempts another VM at once (the armed timer is void).
            voidTimer(pc);
            sliceEnd(pc);
        } else if (!cur.entering && (cfs != null ? cfs.preempts(cur.vruntime, v.vruntime)
                : v.vruntime < cur.vruntime && v.vruntime + sliceNs < cur.deadline)) {
            // check_preempt_wakeup_fair(): the current vCPU is no longer eligible and the woken one's deadline is earlier.
            if (kickInProgress && wakerPcpu(vcpu) != pc) {
                reschedRemote(pc); // resched_curr() of another pCPU: it switches when the IPI arrives
            } else {
                voidTimer(pc);
                switchTo(pc, v);
            }
        }
        armTimer(pc);
    }
}
