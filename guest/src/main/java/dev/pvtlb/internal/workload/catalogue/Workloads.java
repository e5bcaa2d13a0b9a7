package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.workload.Ebizzy;
import dev.pvtlb.internal.workload.Kernbench;
import dev.pvtlb.internal.workload.MadviseTouch;
import dev.pvtlb.internal.workload.MprotectNoise;
import dev.pvtlb.internal.workload.MunmapStorm;
import dev.pvtlb.internal.workload.NetperfRr;
import dev.pvtlb.internal.workload.SysbenchMmapRndwr;
import dev.pvtlb.internal.workload.TlbTorture;
import dev.pvtlb.internal.workload.TlbFlush2;
import dev.pvtlb.internal.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The workloads a run can name: built-ins plus any a user's jar registers through ServiceLoader. */
public final class Workloads {
    private Workloads() {}

    public static List<Workload> all() {
        TreeMap<String, Workload> m = new TreeMap<>();
        for (Workload w : List.of(new MunmapStorm(), new GupFastVsFree(), new LazySpeculativeWalk(), new KvmPreemptedFlush(),
                new SmtSiblingDedup(), new Arm64StaleCpumask(), new MadviseNestedFlush(), new SwitchMmSkippedFlush(),
                new MunmapNestedResetRange(), new MremapVsTruncate(),
                new TableFreeNoInvalidate(), new LazyLeaveBarrier(),
                // the benchmarks the cited LKML threads measured their patches with
                new SysbenchMmapRndwr(), new NetperfRr(), new Kernbench(), new MprotectNoise(), new Ebizzy(),
                new TlbFlush2(), new MadviseTouch(),
                // a torture test mixing every path that changes page tables, for bugs no entry was written for
                new TlbTorture())) {
            m.put(w.name(), w);
        }
        for (Workload w : ServiceLoader.load(Workload.class)) {
            m.putIfAbsent(w.name(), w);
        }
        return new ArrayList<>(m.values());
    }

    /**
     * The catalogue's entries: small scenarios that each reproduce one historical TLB-flush bug
     * under one knob setting and are safe under the fix, in name order.
     */
    public static List<Workload> catalogue() {
        return all().stream().filter(Workloads::inCatalogue).toList();
    }

    /** Whether {@code w} is one of the catalogue's entries. */
    public static boolean inCatalogue(Workload w) {
        return w instanceof Catalogue;
    }

    public static Workload byName(String name) {
        for (Workload w : all()) {
            if (w.name().equals(name)) {
                return w;
            }
        }
        List<String> names = all().stream().map(Workload::name).toList();
        throw new ModelException("unknown scenario '" + name + "' (built-ins: " + String.join(", ", names) + ")");
    }
}
