package dev.pvtlb.nativebridge.probe;

import java.util.List;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/**
 * How this kernel flushes other CPUs' TLBs, i.e. what pv_ops.mmu.flush_tlb_multi points
 * at, as far as the kernel log tells:
 * <ul>
 * <li>"hypercall (PVM_HC_FLUSH_TLB_MULTI)": a PVM guest ("pvm-pv: remote TLB flushes via ...");
 * <li>"hypercall (Hyper-V HVCALL_FLUSH_VIRTUAL_ADDRESS_*)": hyperv_setup_mmu_ops() printed
 *     "Hyper-V: Using hypercall for remote TLB flush";
 * <li>"kvm pv tlb flush": kvm_guest_init() printed "KVM setup pv remote TLB flush"
 *     (kvm_flush_tlb_multi: IPIs to running vCPUs, a flag in steal time for preempted ones);
 * <li>"native IPI": no hypervisor, or one whose guest announced no paravirtual flush;
 * <li>"unknown": a hypervisor is present but the kernel log could not be read.
 * </ul>
 */
public record RemoteFlush(String method, String evidence) {

    private record Rule(Pattern line, Function<MatchResult, String> method) {}

    private static final List<Rule> RULES = List.of(
            new Rule(Pattern.compile("remote TLB flush(?:es)? via ([A-Z][A-Z0-9_]+)"),
                    m -> "hypercall (" + m.group(1) + ")"),
            new Rule(Pattern.compile("Using hypercall for remote TLB flush"),
                    m -> "hypercall (Hyper-V HVCALL_FLUSH_VIRTUAL_ADDRESS_*)"),
            new Rule(Pattern.compile("KVM setup pv remote TLB flush"),
                    m -> "kvm pv tlb flush"));

    static RemoteFlush detect(Hypervisor hypervisor, KernelLog log) {
        for (Rule rule : RULES) {
            var hit = log.find(rule.line());
            if (hit.isPresent()) {
                return new RemoteFlush(rule.method().apply(hit.get().match()), "kernel log: " + hit.get().line());
            }
        }
        if (!hypervisor.present()) {
            return new RemoteFlush("native IPI", "no hypervisor: native_flush_tlb_multi sends IPIs");
        }
        if (log.readable()) {
            return new RemoteFlush("native IPI", "kernel log (" + log.source() + ") announces no paravirtual remote TLB flush");
        }
        return new RemoteFlush("unknown", "hypervisor present, kernel log not readable");
    }
}
