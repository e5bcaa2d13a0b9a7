package dev.pvtlb.config;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.smp.Topology;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a guest is booted from. Built with {@link #builder()}; scenario files are a thin
 * layer over the builder. {@code knobs} are the knobs set explicitly; {@code workloadKnobs} the
 * defaults a workload states for its own set-up, which a {@code kernel=} preset overrides and an
 * explicit knob overrides too.
 */
public record GuestConfig(Topology topology, boolean sharedSmtTlb, long memoryBytes, Profile profile,
                          Map<String, String> knobs, Map<String, String> workloadKnobs, long seed, long quantumNs, long schedSliceNs,
                          PvBackend backend, int pcpus, int vms, int otherBusyVcpus, boolean tracePvOps, boolean speculativeWalks,
                          Fidelity fidelity, Topology hostTopology) {
    /** Default guest memory: 256 MiB. */
    public static final long DEFAULT_MEMORY = 256L << 20;

    public GuestConfig {
        knobs = Map.copyOf(knobs);
        java.util.Objects.requireNonNull(fidelity, "fidelity");
        workloadKnobs = Map.copyOf(workloadKnobs);
        if (quantumNs < 0) {
            throw new ModelException("quantum must be >= 0 ns, got " + quantumNs);
        }
        if (schedSliceNs <= 0) {
            throw new ModelException("scheduler slice must be > 0 ns, got " + schedSliceNs);
        }
        if (pcpus < 0 || vms < 1) {
            throw new ModelException("pcpus must be >= 0 (0: one per vCPU) and vms >= 1, got pcpus=" + pcpus + " vms=" + vms);
        }
        if (otherBusyVcpus < 0 || otherBusyVcpus > topology.cpus()) {
            throw new ModelException("others=cpu-bound:N needs 0 < N <= the VM's " + topology.cpus() + " vCPUs, got " + otherBusyVcpus);
        }
        if (hostTopology != null) {
            int hostCpus = pcpus == 0 ? topology.cpus() : pcpus;
            if (!backend.virtualized()) {
                throw new ModelException("host.topology applies to a virtualized backend; backend " + backend.name()
                        + " runs on bare metal, whose CPUs are the guest's topology");
            }
            if (hostTopology.cpus() != hostCpus) {
                throw new ModelException("host.topology " + hostTopology + " has " + hostTopology.cpus() + " pCPUs; the host has "
                        + hostCpus + " (pcpus, or one per vCPU)");
            }
        }
        if (!backend.virtualized() && (pcpus != 0 && pcpus != topology.cpus() || vms != 1)) {
            throw new ModelException("backend " + backend.name() + " runs on bare metal (one CPU per pCPU): pcpus and vms "
                    + "apply to a virtualized backend (" + String.join(", ", PvBackends.all().values().stream()
                            .filter(PvBackend::virtualized).map(PvBackend::name).toList()) + ")");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public int cpus() {
        return topology.cpus();
    }

    /** Builder with the defaults of a 4-CPU x86 guest with 256 MiB. */
    public static final class Builder {
        /** Made by {@link GuestConfig#builder()}. */
        Builder() {}

        private Topology topology = Topology.flat(4);
        private boolean sharedSmtTlb = false;
        private long memoryBytes = DEFAULT_MEMORY;
        private Profile profile;
        private final Map<String, String> knobs = new TreeMap<>();
        private final Map<String, String> workloadKnobs = new TreeMap<>();
        private long seed = 1;
        private long quantumNs = 0;
        private Fidelity fidelity = Fidelity.EXACT;
        /** Null: the profile's kernel.sched.base_slice.ns (EEVDF's sysctl_sched_base_slice). */
        private Long schedSliceNs;
        private PvBackend backend;
        private int pcpus = 0;
        private int vms = 1;
        private int otherBusyVcpus = 0;
        private boolean tracePvOps;
        private boolean speculativeWalks;
        private Topology hostTopology;

        public Builder topology(Topology t) {
            this.topology = t;
            return this;
        }

        public Builder cpus(int n) {
            return topology(Topology.flat(n));
        }

        public Builder sharedSmtTlb(boolean shared) {
            this.sharedSmtTlb = shared;
            return this;
        }

        public Builder memoryBytes(long bytes) {
            this.memoryBytes = bytes;
            return this;
        }

        public Builder memoryMiB(long mib) {
            return memoryBytes(mib << 20);
        }

        /**
         * The profile chosen so far (the default one when none was, loaded once: the figures a
         * caller reads here and those the guest reads are read from one profile, whose
         * {@code keysRead()} then says what the run depended on).
         */
        public Profile profile() {
            if (profile == null) {
                profile = Profile.load(Profile.DEFAULT);
            }
            return profile;
        }

        public Builder profile(Profile p) {
            this.profile = p;
            return this;
        }

        public Builder knob(String name, String value) {
            knobs.put(name, value);
            return this;
        }

        /**
         * A workload's own default for knob {@code name}: in force unless the knob is set
         * explicitly or by a {@code kernel=} preset (a race scripted without a lock, say).
         */
        public Builder workloadKnob(String name, String value) {
            workloadKnobs.put(name, value);
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public Builder quantumNs(long q) {
            this.quantumNs = q;
            return this;
        }

        /** The timing detail of the run (default {@link Fidelity#EXACT}). */
        public Builder fidelity(Fidelity f) {
            this.fidelity = java.util.Objects.requireNonNull(f, "fidelity");
            return this;
        }

        public Builder schedSliceNs(long s) {
            this.schedSliceNs = s;
            return this;
        }

        /** The pv_ops backend by registered name (default: native). */
        public Builder backend(String name) {
            return backend(PvBackends.byName(name));
        }

        /** A backend object directly (one not registered with ServiceLoader, e.g. in a test). */
        public Builder backend(PvBackend b) {
            this.backend = b;
            return this;
        }

        /** Host pCPUs for a virtualized backend; 0 (default) gives one per vCPU. */
        public Builder pcpus(int n) {
            this.pcpus = n;
            return this;
        }

        /**
         * Where the host's pCPUs sit (sockets, cores, SMT threads, numbered as Linux numbers CPUs), for
         * a virtualized backend: a cache line moving between two vCPUs then costs what it costs between
         * the pCPUs they run on. Null (default): each vCPU prices lines at its own place in the guest's
         * topology, as if the host were laid out like the guest.
         */
        public Builder hostTopology(Topology t) {
            this.hostTopology = t;
            return this;
        }

        /** VMs on the host, this guest included; the others are CPU-bound vCPUs competing for pCPUs. */
        public Builder vms(int n) {
            this.vms = n;
            return this;
        }

        /**
         * How many vCPUs of each other VM are CPU-bound threads (a "stress --cpu N" inside it); the
         * rest are idle, halted for the whole run. 0 (default): every one of them.
         */
        public Builder otherBusyVcpus(int n) {
            this.otherBusyVcpus = n;
            return this;
        }

        /** Weave tracing advice into the generated pv_ops class: every op call becomes a trace event. */
        public Builder tracePvOps(boolean on) {
            this.tracePvOps = on;
            return this;
        }

        /** Idle CPUs in lazy TLB mode walk their loaded page tables speculatively (a choice point). */
        public Builder speculativeWalks(boolean on) {
            this.speculativeWalks = on;
            return this;
        }

        /** The backend chosen so far (native when none was). */
        public PvBackend backend() {
            return backend == null ? PvBackends.byName("native") : backend;
        }

        public GuestConfig build() {
            Profile p = profile();
            return new GuestConfig(topology, sharedSmtTlb, memoryBytes, p, knobs, workloadKnobs, seed, quantumNs,
                    schedSliceNs != null ? schedSliceNs : p.ns("kernel.sched.base_slice.ns"),
                    backend(), pcpus, vms, otherBusyVcpus, tracePvOps, speculativeWalks, fidelity, hostTopology);
        }
    }
}
