package dev.pvtlb.client;

import dev.pvtlb.Guest;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.pvops.PvOpsBootException;
import dev.pvtlb.report.RunReportJson;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import java.util.Locale;

/**
 * A program embedding the modules: prints where the library's classes live, the backends it
 * finds through the descriptors (its own included), and one workload's figures under bare
 * metal, KVM (a backend in a package its module does not export) and its own backend.
 */
public final class ModularClient {
    private ModularClient() {}

    /** munmap-storm on 4 vCPUs, 4 threads, 200 ops, seed 7 (the workload of docs/samples Sample 2). */
    static Scenario workload() {
        return Scenario.of("munmap-storm").set("vcpus", "4").set("threads", "4").set("ops", "200").seed(7);
    }

    static String line(String backend, boolean virtualized) {
        Scenario s = workload().backend(backend);
        if (virtualized) {
            s.set("pcpus", "4").set("vms", "2");
        }
        RunReport r = Runner.run(s);
        String json = RunReportJson.toJson(r);
        if (!json.contains("\"nr_tlb_remote_flush\": " + r.counters().get("nr_tlb_remote_flush"))) {
            throw new IllegalStateException("the report module's JSON lacks the counter: " + json);
        }
        return String.format(Locale.ROOT, "%s: nr_tlb_remote_flush=%d ipis_sent=%d hypercalls=%d munmap_ns=%.1f",
                backend, r.counters().get("nr_tlb_remote_flush"), r.counters().get("ipis_sent"),
                r.counters().get("hypercalls"), r.metrics().get("munmap_ns").mean());
    }

    public static void main(String[] args) {
        Module guest = Guest.class.getModule();
        System.out.println("client module: " + ModularClient.class.getModule().getName());
        System.out.println("guest module: " + guest.getName());
        System.out.println("exports dev.pvtlb.pvops: " + guest.isExported("dev.pvtlb.pvops"));
        System.out.println("exports dev.pvtlb.internal.sim: " + guest.isExported("dev.pvtlb.internal.sim"));
        System.out.println("backends: " + PvBackends.all().keySet());
        System.out.println("study module: " + dev.pvtlb.study.Study.class.getModule().getName());
        System.out.println(line("native", false));
        System.out.println(line("kvm", true));
        System.out.println(line("module-counting", false));
        try {
            line("module-sealed", false);
            System.out.println("module-sealed: booted, but its package is neither exported nor open");
        } catch (PvOpsBootException e) {
            System.out.println("module-sealed: " + e.getMessage());
        }
        long pid = ProcessHandle.current().pid();
        System.out.println("ffm getpid: " + (NativeOs.select("ffm").getpid() == pid));
        System.out.println("jna getpid: " + (NativeOs.select("jna").getpid() == pid));
    }
}
