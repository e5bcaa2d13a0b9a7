/** A program embedding pvtlb as named modules, with a pv_ops backend of its own. */
module dev.pvtlb.client {
    requires transitive dev.pvtlb.guest; // its exported API names the guest's types
    requires dev.pvtlb.hypervisors;
    requires dev.pvtlb.nativebridge;
    requires dev.pvtlb.report;
    requires dev.pvtlb.study;

    exports dev.pvtlb.client;

    provides dev.pvtlb.pvops.PvBackend with dev.pvtlb.client.CountingBackend.Provider,
            dev.pvtlb.client.sealed.SealedBackend.Provider;
}
