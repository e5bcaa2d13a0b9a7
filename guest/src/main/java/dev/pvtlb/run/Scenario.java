package dev.pvtlb.run;

import dev.pvtlb.Guest;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.Fidelity;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.internal.workload.Metric;
import dev.pvtlb.internal.workload.Params;
import dev.pvtlb.internal.workload.Workload;
import dev.pvtlb.internal.workload.catalogue.Workloads;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A run's full description: workload and its parameters, machine, knobs, seed, repetitions.
 * {@link #set} takes the short keys of the command line ({@code --set key=value}).
 */
public final class Scenario {
    /** Upper bound on repetitions, so a typo cannot run for days. */
    public static final int MAX_REPS = 1000;

    private final Workload workload;
    private final Map<String, String> params = new TreeMap<>();
    private final Map<String, String> knobs = new TreeMap<>();
    private long seed = 1;
    private int reps = 1;
    /** A profile name or file; null: the workload's own choice (the default profile, unless it overrides). */
    private String profile;
    /** {@code profile.KEY=VALUE} settings: single figures of the profile replaced, in the order given. */
    private final Map<String, Double> profileFigures = new LinkedHashMap<>();
    private Integer vcpus;
    private Topology topology;
    /** host.topology: where the host's pCPUs sit; null: as the guest's vCPUs. */
    private Topology hostTopology;
    private Boolean sharedSmtTlb;
    private Long memoryBytes;
    private String backend = "native";
    private Integer pcpus;
    private Integer vms;
    /**
     * What the host's other VMs ({@code vms} &gt; 1) run: false = CPU-bound threads
     * ({@code others=cpu-bound}, the default); true = each a co-guest running this scenario's
     * workload on its own kernel and backend ({@code others=same}), as when every VM of a
     * published overcommit test runs the benchmark.
     */
    private boolean othersSame;
    /** others=cpu-bound:N: N vCPUs of each other VM are busy, the rest idle; 0 for all. */
    private int otherBusyVcpus;
    /** Speculative page walks by lazy idle CPUs; null: the workload's choice (off unless it needs them). */
    private Boolean speculation;
    private boolean tracePvOps;
    /**
     * Batches may run this far past the next event (see Engine). 1 us bounds the extra delay
     * of an IPI's handling by a busy CPU to well under one IPI latency; 0 is exact.
     */
    private Long quantumNs;
    /**
     * The quantum when none is set; -1: the profile's model.quantum.ns (500 ns in x86-skylake: with
     * the data caches a user access costs up to a few hundred ns, and 1 us moved munmap-storm's
     * munmap time by 3% against the exact grain, where QuantumGrainTest asks for less than 2%).
     */
    private long defaultQuantumNs = -1;
    /** The timing detail set with {@code fidelity=}; null: the command's default ({@link #defaultFidelity}). */
    private Fidelity fidelity;
    /** Exact unless the command running the scenario chose fast as its default (run, compare, validate, sweep, demo). */
    private Fidelity defaultFidelity = Fidelity.EXACT;
    private final java.util.List<String> settings = new java.util.ArrayList<>();

    Scenario(Workload workload) {
        this.workload = workload;
    }

    /** An independent copy: changing one (a setting, the default quantum) leaves the other as it was. */
    public Scenario copy() {
        Scenario c = new Scenario(workload);
        c.params.putAll(params);
        c.knobs.putAll(knobs);
        c.seed = seed;
        c.reps = reps;
        c.profile = profile;
        c.profileFigures.putAll(profileFigures);
        c.vcpus = vcpus;
        c.topology = topology;
        c.hostTopology = hostTopology;
        c.sharedSmtTlb = sharedSmtTlb;
        c.memoryBytes = memoryBytes;
        c.backend = backend;
        c.pcpus = pcpus;
        c.vms = vms;
        c.othersSame = othersSame;
        c.otherBusyVcpus = otherBusyVcpus;
        c.speculation = speculation;
        c.tracePvOps = tracePvOps;
        c.quantumNs = quantumNs;
        c.defaultQuantumNs = defaultQuantumNs;
        c.fidelity = fidelity;
        c.defaultFidelity = defaultFidelity;
        c.settings.addAll(settings);
        return c;
    }

    public static Scenario of(String name) {
        return new Scenario(Workloads.byName(name));
    }

    Workload workload() {
        return workload;
    }

    /** The workload's name (a built-in's, e.g. {@code munmap-storm}). */
    public String name() {
        return workload.name();
    }

    /**
     * Creates the workload's processes and tasks on {@code guest}, as {@link Runner} does
     * before it runs one repetition: for a guest booted by the caller (with its own backend,
     * say) that then runs it with {@link Guest#run}.
     */
    public void setUp(Guest guest) {
        if (othersSame && KernelBoot.of(guest).config().vms() > 1) {
            throw new ModelException("others=same: only run, compare and validate boot the other VMs as co-guests; "
                    + "here they would be CPU-bound threads (use others=cpu-bound)");
        }
        workload.setUp(KernelBoot.of(guest), params());
    }

    /** A co-guest of {@code others=same} and what its workload measures once the run has ended. */
    record CoGuest(Guest guest, Supplier<Map<String, Metric>> metrics) {
    }

    /**
     * With {@code others=same} and more than one VM: boots VM 1.. of {@code primary}'s host as
     * co-guests (KernelBoot.bootCoGuest(): each its own kernel and backend on the primary's host and
     * engine, seeded apart) and sets this scenario's workload up on each, for {@link Runner} to
     * run beside the primary, in VM order. Otherwise none. The caller closes them.
     */
    List<CoGuest> bootCoGuests(int rep, Kernel primary) {
        List<CoGuest> guests = new ArrayList<>();
        int vms = primary.config().vms();
        if (!othersSame || vms < 2) {
            return guests;
        }
        try {
            for (int vm = 1; vm < vms; vm++) {
                GuestConfig cfg = guestConfig(rep, (seed + rep) ^ (vm * 0x9E3779B97F4A7C15L), false);
                Kernel k = KernelBoot.bootCoGuest(cfg, primary, vm);
                Guest g = (Guest) k.facade();
                try {
                    guests.add(new CoGuest(g, workload.setUp(k, params())));
                } catch (RuntimeException e) {
                    g.close();
                    throw e;
                }
            }
            return guests;
        } catch (RuntimeException e) {
            guests.forEach(c -> c.guest().close());
            throw e;
        }
    }

    /**
     * Boots the guest of repetition {@code rep} and sets the workload up on it, ready to run:
     * for a caller that wants to subscribe to its tracepoints or step it itself. The caller
     * closes it.
     */
    public Guest boot(int rep) {
        Guest g = Guest.boot(guestConfig(rep));
        try {
            setUp(g);
            return g;
        } catch (RuntimeException e) {
            g.close();
            throw e;
        }
    }

    /**
     * Whether every pv_ops call is also a tracepoint event ({@code pv_ops}) on the guests this
     * scenario boots, as {@code GuestConfig.Builder.tracePvOps} does for a guest built by hand.
     */
    public Scenario tracePvOps(boolean on) {
        this.tracePvOps = on;
        return this;
    }

    public Scenario seed(long s) {
        this.seed = s;
        return this;
    }

    public long seed() {
        return seed;
    }

    public Scenario reps(int r) {
        if (r < 1 || r > MAX_REPS) {
            throw new ModelException("reps must be between 1 and " + MAX_REPS + ", got " + r);
        }
        this.reps = r;
        return this;
    }

    public int reps() {
        return reps;
    }

    public String backend() {
        return backend;
    }

    public Scenario backend(String b) {
        this.backend = PvBackends.byName(b).name();
        return this;
    }

    /** Applies one {@code key=value} setting: a machine key, a workload parameter or a knob. */
    public Scenario set(String key, String value) {
        String v = value.strip();
        switch (key) {
            case "vcpus" -> vcpus = (int) parseLong(key, v, 1, Topology.MAX_CPUS);
            case "memory" -> memoryBytes = parseLong(key, v, PhysMem.MIN_BYTES >> 20, PhysMem.MAX_BYTES >> 20) << 20;
            case "profile" -> profile = v;
            case "topology" -> topology = Topology.parse(key, v);
            case "host.topology" -> hostTopology = Topology.parse(key, v);
            case "smt.sharedTlb" -> {
                if (!v.equals("true") && !v.equals("false")) {
                    throw new ModelException("smt.sharedTlb must be true or false, got '" + v + "'");
                }
                sharedSmtTlb = Boolean.parseBoolean(v);
            }
            case "pcpus" -> pcpus = (int) parseLong(key, v, 0, Topology.MAX_CPUS);
            case "vms" -> vms = (int) parseLong(key, v, 1, 64);
            case "others" -> {
                // cpu-bound:N: N busy vCPUs in each other VM; plain cpu-bound (0): all of them.
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("cpu-bound(?::([0-9]{1,5}))?|same").matcher(v);
                if (!m.matches()) {
                    throw new ModelException("others must be cpu-bound, cpu-bound:N (N vCPUs of each busy) or same, got '" + v + "'");
                }
                int busy = m.group(1) == null ? 0 : Integer.parseInt(m.group(1));
                if (m.group(1) != null && busy == 0) {
                    throw new ModelException("others=cpu-bound:N needs N >= 1, got '" + v + "'");
                }
                othersSame = v.equals("same");
                otherBusyVcpus = busy;
            }
            case "speculation" -> {
                if (!v.equals("on") && !v.equals("off")) {
                    throw new ModelException("speculation must be on or off, got '" + v + "'");
                }
                speculation = v.equals("on");
            }
            case "quantum" -> quantumNs = parseLong(key, v, 0, 1_000_000_000L);
            case "fidelity" -> fidelity = Fidelity.parse(v);
            case "seed" -> seed = parseLong(key, v, Long.MIN_VALUE, Long.MAX_VALUE);
            case "reps" -> reps((int) parseLong(key, v, 1, MAX_REPS));
            default -> {
                if (key.startsWith(PROFILE_FIGURE)) {
                    profileFigure(key.substring(PROFILE_FIGURE.length()), v);
                } else if (workload.parameters().containsKey(key)) {
                    params.put(key, v);
                } else if (KnobRegistry.isKnob(key)) {
                    knobs.put(key, v); // values are checked at boot, against the chosen backend
                } else {
                    throw new ModelException("unknown setting '" + key + "' (machine: vcpus, topology, smt.sharedTlb, memory, "
                            + "pcpus, host.topology, vms, others, profile, profile.KEY, quantum, fidelity, speculation, seed, reps; workload: " + String.join(", ", workload.parameters().keySet())
                            + "; knobs: " + String.join(", ", KnobRegistry.common().stream().map(k -> k.name()).toList())
                            + " and the backends' (pvtlb backends))");
                }
            }
        }
        settings.add(key + "=" + v); // only settings that were taken
        return this;
    }

    /** The prefix of a setting that replaces one figure of the profile, e.g. {@code profile.ipi.send.ns=80}. */
    public static final String PROFILE_FIGURE = "profile.";

    private void profileFigure(String key, String v) {
        if (!Profile.KEYS.contains(key)) {
            throw new ModelException("unknown profile figure '" + key + "' in profile." + key + " (figures: "
                    + String.join(", ", Profile.KEYS) + ")");
        }
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new ModelException("profile." + key + " must be a number, got '" + v + "'");
        }
        if (!(d >= 0) || d > 1e12) {
            throw new ModelException("profile." + key + " must be between 0 and 1e12, got " + v);
        }
        profileFigures.put(key, d);
    }

    private static long parseLong(String key, String v, long min, long max) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ModelException(key + " must be an integer, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new ModelException(key + " must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    Params params() {
        return new Params(workload, params);
    }

    /** Whether explore hunts in this scenario's workload by windows at its flushes (Workload.exploredInWindows). */
    public boolean exploredInWindows() {
        return workload.exploredInWindows();
    }

    /** Whether the scenario's workload takes parameter {@code name} (e.g. a catalogue entry's {@code cpus}). */
    public boolean takes(String name) {
        return workload.parameters().containsKey(name);
    }

    public Map<String, String> knobSettings() {
        return new LinkedHashMap<>(knobs);
    }

    /**
     * The quantum used when none was set: the profile's model.quantum.ns for runs; the explorer uses 0 (exact), since a
     * batch running past the next event hides interleavings.
     */
    public Scenario defaultQuantum(long ns) {
        this.defaultQuantumNs = ns;
        return this;
    }

    /**
     * The timing detail used when none was set with {@code fidelity=}: the commands that report
     * figures (run, compare, validate, sweep, demo) choose fast; a scenario built directly, the
     * explorer and replay keep exact.
     */
    public Scenario defaultFidelity(Fidelity f) {
        this.defaultFidelity = java.util.Objects.requireNonNull(f, "fidelity");
        return this;
    }

    /** The timing detail the scenario runs at: the one set, else the default. */
    public Fidelity fidelity() {
        return fidelity != null ? fidelity : defaultFidelity;
    }

    /** The guest configuration of repetition {@code rep} (seed + rep). */
    public GuestConfig guestConfig(int rep) {
        return guestConfig(rep, seed + rep, tracePvOps);
    }

    private GuestConfig guestConfig(int rep, long guestSeed, boolean trace) {
        GuestConfig.Builder b = GuestConfig.builder().backend(backend);
        workload.configure(b, params());
        if (vcpus != null) {
            b.topology(Topology.flat(vcpus));
        }
        if (topology != null) {
            b.topology(topology);
        }
        if (sharedSmtTlb != null) {
            b.sharedSmtTlb(sharedSmtTlb);
        }
        if (memoryBytes != null) {
            b.memoryBytes(memoryBytes);
        }
        if (profile != null) {
            b.profile(Profile.load(profile));
        }
        if (!profileFigures.isEmpty()) {
            b.profile(b.profile().with(profileFigures, "--set profile.KEY"));
        }
        if (pcpus != null) {
            b.pcpus(pcpus);
        }
        b.hostTopology(hostTopology);
        if (vms != null) {
            b.vms(vms);
        }
        b.otherBusyVcpus(otherBusyVcpus);
        if (speculation != null) {
            b.speculativeWalks(speculation);
        }
        b.tracePvOps(trace);
        knobs.forEach(b::knob);
        b.seed(guestSeed);
        b.fidelity(fidelity());
        b.quantumNs(quantumNs != null ? quantumNs : defaultQuantumNs >= 0 ? defaultQuantumNs : b.profile().ns("model.quantum.ns"));
        return b.build();
    }

    /** The settings given with {@link #set}, in the order given, for a trace file to repeat. */
    public java.util.List<String> settings() {
        return java.util.List.copyOf(settings);
    }
}
