/**
 * The host side of the backend SPI: what a paravirtual backend may ask of the hypervisor its guest
 * runs on. The host model itself (pCPUs, the host scheduler, KVM's pause-loop exits and directed
 * yield, halt polling) is the machine's and stays internal; a backend reaches it only through
 * these types, handed out by {@link dev.pvtlb.pvops.BackendContext}:
 * <ul>
 *   <li>{@link KvmHost}: a KVM host ({@link KvmScheduling}) that tells the backend about its
 *       vCPUs' threads ({@link VcpuEvents}: kvm_sched_out(), vcpu_enter_guest()) and yields on a
 *       guest's request (kvm_sched_yield());</li>
 *   <li>{@link HypervisorFlush}: a hypervisor that flushes vCPUs on a guest's behalf (Xen's
 *       MMUEXT_TLB_FLUSH_MULTI, Hyper-V's HvFlushVirtualAddressSpace, PVM's PVM_HC_FLUSH_TLB_MULTI,
 *       KVM's kvm_flush_remote_tlbs()).</li>
 * </ul>
 */
package dev.pvtlb.host;
