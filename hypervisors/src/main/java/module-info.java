/**
 * The host model and the shipped pv_ops backends: a plug-in module. It exports nothing; its
 * backends are found by name through {@link java.util.ServiceLoader}, and the package holding
 * them is open to the guest so that the patcher can define each backend's pv_ops class beside it.
 */
module dev.pvtlb.hypervisors {
    requires transitive dev.pvtlb.guest;

    opens dev.pvtlb.internal.backends to dev.pvtlb.guest;

    provides dev.pvtlb.pvops.PvBackend with
            dev.pvtlb.internal.backends.XenPvBackend.Provider,
            dev.pvtlb.internal.backends.HypervBackend.Provider,
            dev.pvtlb.internal.backends.KvmBackend.Provider,
            dev.pvtlb.internal.backends.Arm64Backend.Provider,
            dev.pvtlb.internal.backends.InvlpgbBackend.Provider,
            dev.pvtlb.internal.backends.RarBackend.Provider,
            dev.pvtlb.internal.backends.PvmBackend.Provider;
}
