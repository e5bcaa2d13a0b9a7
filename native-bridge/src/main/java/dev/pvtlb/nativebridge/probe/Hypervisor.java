package dev.pvtlb.nativebridge.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether this kernel runs under a hypervisor, and which. Three witnesses, strongest name
 * first: the kernel log's "Hypervisor detected: X" (init_hypervisor_platform(), x86),
 * /sys/hypervisor/type (Xen), and "Booting paravirtualized kernel on X" (setup_arch();
 * bare metal prints "on bare hardware"). The cpuinfo flag "hypervisor" (CPUID.1:ECX[31])
 * proves presence but names nothing.
 *
 * @param name the hypervisor as the kernel names it ("KVM", "PVM", "Microsoft Hyper-V",
 *             "Xen HVM", "xen"), "unknown" when only the flag says so, "none" on bare metal
 * @param evidence one entry per witness found, quoting the line or file
 */
public record Hypervisor(boolean present, String name, List<String> evidence) {

    private static final Pattern DETECTED = Pattern.compile("Hypervisor detected: (.+)$");
    private static final Pattern PV_BOOT = Pattern.compile("Booting paravirtualized kernel on (.+)$");

    public Hypervisor {
        evidence = List.copyOf(evidence);
    }

    static Hypervisor detect(ProcCpuInfo cpuinfo, Optional<String> sysType, KernelLog log) {
        List<String> evidence = new ArrayList<>();
        String name = null;
        boolean flag = cpuinfo.hasFlag("hypervisor");
        if (flag) {
            evidence.add("/proc/cpuinfo flag: hypervisor");
        }
        var detected = log.find(DETECTED);
        if (detected.isPresent()) {
            evidence.add("kernel log: " + detected.get().line());
            name = detected.get().match().group(1).trim();
        }
        if (sysType.isPresent() && !sysType.get().isEmpty()) {
            evidence.add("/sys/hypervisor/type: " + sysType.get());
            name = name != null ? name : sysType.get();
        }
        var pvBoot = log.find(PV_BOOT).filter(h -> !h.match().group(1).trim().equals("bare hardware"));
        if (pvBoot.isPresent()) {
            evidence.add("kernel log: " + pvBoot.get().line());
            name = name != null ? name : pvBoot.get().match().group(1).trim();
        }
        if (name == null) {
            name = flag ? "unknown" : "none";
        }
        return new Hypervisor(!evidence.isEmpty(), name, evidence);
    }
}
