package dev.pvtlb.profile;

import dev.pvtlb.model.ModelException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A calibration profile: the primitive costs the model charges (DESIGN.md rule 5), read from
 * a flat YAML file of {@code key: value} lines whose comments cite each figure's source.
 * Built-in profiles live under {@code dev/pvtlb/profile/}; a user's file may give
 * {@code extends: NAME} and override any subset of its keys.
 *
 * <p>A figure with no public source is ASSUMED, and says how far it may be off: the comment line
 * just above its key reads {@code # ASSUMED range: LOW..HIGH}. The value must lie in its range;
 * {@code pvtlb validate --sensitivity} re-runs each experiment with the figure at either end.
 */
public final class Profile {
    /** Every key a profile must define, so a typo is an error rather than a silent default. */
    public static final Set<String> KEYS = Collections.unmodifiableSet(new java.util.TreeSet<>(List.of(
            "tlb.entries", "tlb.ways", "psc.pml4e", "psc.pdpte", "psc.pde",
            "access.ns", "walk.level.ns", "stlb.hit.ns", "dtlb.entries", "dtlb.ways",
            "cache.l1.kib", "cache.l1.ways", "cache.l2.kib", "cache.l2.ways", "cache.l2.ns",
            "cache.llc.kib_per_core", "cache.llc.ways", "cache.llc.ns", "mem.ns", "invlpg.ns", "flush.ceiling.pages", "flush.full.ns", "cr3.write.ns",
            "ipi.send.ns", "ipi.latency.min.ns", "ipi.latency.max.ns", "ipi.latency.points",
            "irq.entry_exit.ns", "csd.run.ns", "line.local.ns", "line.same_socket.ns", "line.cross_socket.ns", "line.fill_buffers",
            "smt.share.factor", "syscall.ns", "fault.ns", "fault.dax.ns", "pte.op.ns", "vma.op.ns", "shmem.release.ns",
            "pgtable.free.ns", "rcu.call.ns", "rcu.callback.ns",
            "page.pcp.batch", "page.pcp.high", "page.release.batch", "page.zone_lock.page.ns", "page.lru_lock.page.ns", "context_switch.ns", "idle.enter.ns",
            "vmexit.ns", "hypercall.ns", "host.slice.ns", "host.ple_window.ns", "host.ple_window.grow", "host.halt_poll.ns", "host.halt_poll.grow_start.ns", "host.halt_poll.grow", "host.halt_poll.shrink",
            "tlbi.ns", "tlbi.sync.ns", "tlbi.bystander.ns", "tlbi.bystander.sync.ns", "tlbi.dvm.snoop.ns", "tlbi.max_ops",
            "invlpgb.ns", "invlpgb.count_max", "tlbsync.ns",
            "rar.send.ns", "rar.latency.ns", "rar.target.ns", "cpu.pause.ns",
            "kernel.sched.base_slice.ns", "kernel.cfs.latency.ns", "kernel.cfs.min_granularity.ns",
            "kernel.cfs.wakeup_granularity.ns", "kernel.sched.migration_cost.ns", "kernel.cpumask_trim.period.ns",
            "kernel.perf.nmi_max.ns", "model.quantum.ns", "model.spin.step.ns", "model.speculation.tick.ns",
            "model.store_drain.max.ns", "model.sleep_poll.ns")));
    public static final String DEFAULT = "x86-skylake";

    /**
     * The built-in profiles, one per machine a published result was measured on or a design is
     * usually measured on; each file's {@code machine:} line says which part it describes.
     */
    public static final List<String> BUILT_IN = List.of(DEFAULT, "x86-haswell", "x86-skylake-sp", "x86-sapphire-rapids",
            "amd-epyc-milan", "arm64-thunderx2");

    private final String name;
    private final String arch;
    private final String machine;
    private final Map<String, Double> values;
    private final Map<String, Range> assumed;
    /**
     * The keys read so far through {@link #get} (and so {@link #ns}, {@link #ps}, {@link #integer}),
     * every key once {@link #values()} was handed out: what a run of this profile depended on.
     * {@code validate --sensitivity} leaves a figure that no run read at its value, since setting
     * it elsewhere cannot change a byte of that run.
     */
    private final Set<String> read = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The plausible span of an ASSUMED figure, as its profile states it. */
    public record Range(double low, double high) {
        public boolean contains(double v) {
            return low <= v && v <= high;
        }
    }

    private Profile(String name, String arch, String machine, Map<String, Double> values, Map<String, Range> assumed) {
        this.name = name;
        this.arch = arch;
        this.machine = machine;
        this.values = Collections.unmodifiableMap(values);
        this.assumed = Collections.unmodifiableMap(assumed);
    }

    public String name() {
        return name;
    }

    public String arch() {
        return arch;
    }

    /** The machine the figures describe, as the file's {@code machine:} line states it ("" when it names none). */
    public String machine() {
        return machine;
    }

    /** Every figure; marks them all read, since the caller may use any. */
    public Map<String, Double> values() {
        read.addAll(values.keySet());
        return values;
    }

    /** The ASSUMED figures and their ranges, in file order (inherited ones first). */
    public Map<String, Range> assumedRanges() {
        return assumed;
    }

    /** A cost in nanoseconds, rounded to the model's clock resolution (at least 0). */
    public long ns(String key) {
        return Math.max(0, Math.round(get(key)));
    }

    /** A cost in picoseconds, for per-access costs below a nanosecond's resolution. */
    public long ps(String key) {
        return Math.max(0, Math.round(get(key) * 1000.0));
    }

    public int integer(String key) {
        return (int) Math.round(get(key));
    }

    public double get(String key) {
        read.add(key);
        Double v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("profile " + name + " has no key " + key);
        }
        return v;
    }

    /** The keys read from this profile so far (see {@link #read}), sorted. */
    public Set<String> keysRead() {
        return Collections.unmodifiableSet(new java.util.TreeSet<>(read));
    }

    /** A copy with some values replaced (e.g. a scenario's override), checked like a file. */
    public Profile with(Map<String, Double> overrides, String source) {
        Map<String, Double> m = new LinkedHashMap<>(values);
        for (var e : overrides.entrySet()) {
            check(e.getKey(), e.getValue(), source);
            m.put(e.getKey(), e.getValue());
        }
        return new Profile(name, arch, machine, m, new LinkedHashMap<>(assumed));
    }

    /** Largest profile file read. */
    public static final int MAX_BYTES = 1 << 20;
    /** Longest chain of 'extends' followed (a profile that extends itself would otherwise never end). */
    static final int MAX_EXTENDS = 8;

    /** A built-in profile by name, or a profile file by path (read by the bounded {@link dev.pvtlb.model.InputFile}). */
    public static Profile load(String nameOrPath) {
        return load(nameOrPath, 0);
    }

    private static Profile load(String nameOrPath, int depth) {
        String res = "/dev/pvtlb/profile/" + nameOrPath + ".yaml";
        try (InputStream in = Profile.class.getResourceAsStream(res)) {
            if (in != null) {
                return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), nameOrPath, depth);
            }
        } catch (IOException e) {
            throw new ModelException("cannot read built-in profile " + nameOrPath + ": " + e.getMessage());
        }
        Path p;
        try {
            p = Path.of(nameOrPath);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ModelException("unknown profile '" + nameOrPath + "': not a built-in nor a file name");
        }
        if (!Files.exists(p)) {
            throw new ModelException("unknown profile '" + nameOrPath + "': not a built-in (" + String.join(", ", BUILT_IN)
                    + ") nor a readable file");
        }
        return parse(dev.pvtlb.model.InputFile.read(p, "profile file", MAX_BYTES), nameOrPath, depth);
    }

    /** Parses the flat {@code key: value} format; {@code source} names the file in errors. */
    public static Profile parse(String text, String source) {
        return parse(text, source, 0);
    }

    private static Profile parse(String text, String source, int depth) {
        Map<String, Double> m = new LinkedHashMap<>();
        Map<String, Range> ranges = new LinkedHashMap<>();
        String name = null;
        String arch = null;
        String machine = null;
        Range pending = null;
        int pendingLine = 0;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                Range r = rangeOf(line.substring(hash + 1).strip(), source + ":" + (i + 1));
                if (r != null) {
                    if (pending != null) {
                        throw new ModelException(source + ":" + pendingLine + ": ASSUMED range is not followed by its key");
                    }
                    pending = r;
                    pendingLine = i + 1;
                }
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                if (pending != null && hash < 0) {
                    throw new ModelException(source + ":" + pendingLine + ": ASSUMED range is not followed by its key");
                }
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new ModelException(source + ":" + (i + 1) + ": expected 'key: value', got '" + line + "'");
            }
            String key = line.substring(0, colon).strip();
            String val = line.substring(colon + 1).strip();
            switch (key) {
                case "name" -> name = val;
                case "arch" -> arch = val;
                case "machine" -> machine = val;
                case "extends" -> {
                    if (!m.isEmpty()) {
                        throw new ModelException(source + ":" + (i + 1) + ": 'extends' must come before any value");
                    }
                    if (depth >= MAX_EXTENDS) {
                        throw new ModelException(source + ":" + (i + 1) + ": 'extends' chain longer than " + MAX_EXTENDS
                                + " profiles (does it extend itself?)");
                    }
                    Profile base = load(val, depth + 1);
                    m.putAll(base.values);
                    ranges.putAll(base.assumed);
                    arch = base.arch;
                    machine = base.machine;
                }
                default -> {
                    double d;
                    try {
                        d = Double.parseDouble(val);
                    } catch (NumberFormatException e) {
                        throw new ModelException(source + ":" + (i + 1) + ": " + key + " must be a number, got '" + val + "'");
                    }
                    check(key, d, source + ":" + (i + 1));
                    m.put(key, d);
                    if (pending != null) {
                        if (!pending.contains(d)) {
                            throw new ModelException(source + ":" + (i + 1) + ": " + key + " = " + val
                                    + " lies outside its ASSUMED range " + pending.low() + ".." + pending.high());
                        }
                        ranges.put(key, pending);
                    } else {
                        ranges.remove(key); // a sourced figure overriding an assumed one
                    }
                }
            }
            if (pending != null && ranges.get(key) != pending) {
                throw new ModelException(source + ":" + pendingLine + ": ASSUMED range is not followed by a figure");
            }
            pending = null;
        }
        if (pending != null) {
            throw new ModelException(source + ":" + pendingLine + ": ASSUMED range is not followed by its key");
        }
        for (String k : KEYS) {
            if (!m.containsKey(k)) {
                throw new ModelException(source + ": profile lacks " + k);
            }
        }
        return new Profile(name == null ? source : name, arch == null ? "x86" : arch, machine == null ? "" : machine, m, ranges);
    }

    /** The range a comment states ({@code ASSUMED range: LOW..HIGH}), or null for any other comment. */
    private static Range rangeOf(String comment, String where) {
        String tag = "ASSUMED range:";
        if (!comment.startsWith(tag)) {
            return null;
        }
        String spec = comment.substring(tag.length()).strip();
        int space = spec.indexOf(' ');
        if (space > 0) {
            spec = spec.substring(0, space); // words after the range explain it
        }
        int dots = spec.indexOf("..");
        try {
            if (dots > 0) {
                double low = Double.parseDouble(spec.substring(0, dots));
                double high = Double.parseDouble(spec.substring(dots + 2));
                if (low >= 0 && low <= high && high <= 1e12) {
                    return new Range(low, high);
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ModelException(where + ": expected 'ASSUMED range: LOW..HIGH' with 0 <= LOW <= HIGH, got '" + comment + "'");
    }

    private static void check(String key, double d, String where) {
        if (!KEYS.contains(key)) {
            throw new ModelException(where + ": unknown profile key '" + key + "'");
        }
        if (!(d >= 0) || d > 1e12) {
            throw new ModelException(where + ": " + key + " must be between 0 and 1e12, got " + d);
        }
    }
}
