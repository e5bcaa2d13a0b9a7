/** An external project's module: pvtlb by its descriptors, its own backend registered with provides. */
module example.embed {
    requires dev.pvtlb.guest;
    requires dev.pvtlb.hypervisors;

    exports example.embed;

    provides dev.pvtlb.pvops.PvBackend with example.embed.CountingBackend.Provider;
}
