package dev.pvtlb.internal.kernel;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.sim.Chooser;
import dev.pvtlb.pvops.BackendContext;

/**
 * Booting a guest kernel: a primary guest, or a co-guest on its primary's host (another VM with
 * its own memory, CPUs and backend), and the way from a public {@code dev.pvtlb.Guest} to the
 * kernel behind it. A program boots through the facade; the explorer, tests and benchmarks boot
 * here and work on the kernel.
 */
public final class KernelBoot {
    private KernelBoot() {
    }

    /**
     * Boots the kernel behind {@code facade}: memory, CPUs, init_mm, pv_ops patched to the
     * configured backend (which is handed this kernel as its context); every CPU starts in its idle loop.
     * {@code chooser} answers the choice points from the first one on (null: seeded random).
     */
    public static Kernel boot(GuestConfig config, Chooser chooser, Object facade) {
        return started(new Kernel(config, chooser, facade, null, 0, KernelBoot::backendContext, IdleLoop::new,
                BareMetalIpi::new), facade);
    }

    /**
     * Wires what the kernel's classes do not name themselves (each CPU's interrupt handlers, its
     * vCPU's preempt hook), ties {@code kernel} to {@code facade} (before the backend attaches: it
     * may ask the facade), then starts it.
     */
    private static Kernel started(Kernel kernel, Object facade) {
        for (KernelCpu c : kernel.cpus()) {
            // idt_setup_apic_and_irq_gates() and open_softirq(RCU_SOFTIRQ): each CPU's handlers.
            c.interrupts().handlers(new CallFunctionInterrupt(), new RescheduleInterrupt(), new RcuSoftirq());
            // A paravirt spinlock's waiter whose vCPU the host deschedules (pv_wait_early); a
            // writer spinning on an mmap_lock whose owner ran on it (owner_on_cpu() turns false).
            c.runState().onPreempt(() -> {
                SpinLockedSection.waiterPreempted(c);
                if (c.rq.current() != null) {
                    c.rq.current().wakeSpinners();
                }
            });
        }
        FacadeLink.get().bind(facade, kernel);
        kernel.start();
        return kernel;
    }

    private static BackendContext backendContext(Kernel kernel) {
        return FacadeLink.get().backendContext(kernel);
    }

    /**
     * Boots co-guest {@code vm} of {@code primary}'s host behind {@code facade}: another VM on the
     * same host, with its own memory, CPUs and backend instance, whose vCPUs are the host's VM
     * {@code vm} (instead of CPU-bound threads) and whose steps run on the primary's engine.
     */
    public static Kernel bootCoGuest(GuestConfig config, Kernel primary, int vm, Object facade) {
        if (primary.primaryGuest() != null) {
            throw new IllegalArgumentException("a co-guest's primary must be a primary guest");
        }
        if (vm < 1 || vm >= primary.config().vms()) {
            throw new IllegalArgumentException("co-guest " + vm + " of a host with " + primary.config().vms() + " VMs");
        }
        if (config.topology().cpus() != primary.cpus().length || config.vms() != primary.config().vms()
                || config.backend() != primary.config().backend()) {
            throw new IllegalArgumentException("a co-guest has its primary's vCPU count, VM count and backend");
        }
        return started(new Kernel(config, null, facade, primary, vm, KernelBoot::backendContext, IdleLoop::new,
                BareMetalIpi::new), facade);
    }

    /** Boots co-guest {@code vm} of {@code primary} (see {@link #bootCoGuest(GuestConfig, Kernel, int, Object)}) and returns its kernel. */
    public static Kernel bootCoGuest(GuestConfig config, Kernel primary, int vm) {
        return of(FacadeLink.get().bootCoGuest(config, primary, vm));
    }

    /** Boots a guest and returns its kernel (the explorer, tests and benchmarks work on it). */
    public static Kernel boot(GuestConfig config, Chooser chooser) {
        return of(FacadeLink.get().boot(config, chooser));
    }

    /** Boots a guest with seeded choices and returns its kernel. */
    public static Kernel boot(GuestConfig config) {
        return boot(config, null);
    }

    /** The kernel behind a guest ({@code guest} is a {@code dev.pvtlb.Guest}). */
    public static Kernel of(Object guest) {
        return FacadeLink.get().kernel(guest);
    }

    /** Called once, by {@code Guest}'s class initialisation. */
    public static void facadeAccess(FacadeAccess access) {
        FacadeLink.set(access);
    }
}
