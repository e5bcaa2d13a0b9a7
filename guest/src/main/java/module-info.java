/**
 * The guest-kernel model and its engine. Exported: the embedding API ({@code dev.pvtlb},
 * {@code run}, {@code stats}, {@code hazard}, {@code explore}, {@code junit}, {@code profile},
 * {@code config}), the backend SPI ({@code pvops}, {@code flush}, {@code smp}, {@code knob})
 * and the types both share ({@code model}); the model's machinery under
 * {@code dev.pvtlb.internal} is exported only to the module of the shipped backends, which
 * builds the host model out of it.
 */
@SuppressWarnings({"module", "requires-automatic"}) // qualified exports to a module not always present; HdrHistogram has no descriptor
module dev.pvtlb.guest {
    requires transitive net.bytebuddy;
    requires org.snakeyaml.engine;
    requires HdrHistogram;
    requires jdk.jfr;
    // Only for dev.pvtlb.junit: a user's test path brings JUnit.
    requires static org.junit.jupiter.api;

    exports dev.pvtlb;
    exports dev.pvtlb.run;
    exports dev.pvtlb.stats;
    exports dev.pvtlb.hazard;
    exports dev.pvtlb.explore;
    exports dev.pvtlb.junit;
    exports dev.pvtlb.pvops;
    exports dev.pvtlb.flush;
    exports dev.pvtlb.smp;
    exports dev.pvtlb.knob;
    exports dev.pvtlb.profile;
    exports dev.pvtlb.model;
    exports dev.pvtlb.config;

    exports dev.pvtlb.internal.kernel to dev.pvtlb.hypervisors;
    exports dev.pvtlb.internal.mm to dev.pvtlb.hypervisors;
    exports dev.pvtlb.internal.profile to dev.pvtlb.hypervisors;
    exports dev.pvtlb.internal.sim to dev.pvtlb.hypervisors;
    exports dev.pvtlb.internal.tlb to dev.pvtlb.hypervisors;
    exports dev.pvtlb.internal.workload to dev.pvtlb.hypervisors;

    uses dev.pvtlb.pvops.PvBackend;
    uses dev.pvtlb.internal.workload.Workload;
    provides dev.pvtlb.pvops.PvBackend with dev.pvtlb.internal.kernel.NativeBackend.Provider;
}
