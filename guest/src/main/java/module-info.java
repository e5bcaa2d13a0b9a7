/**
 * The guest-kernel model and its engine. Exported: the embedding API ({@code dev.pvtlb},
 * {@code run}, {@code stats}, {@code hazard}, {@code explore}, {@code junit}, {@code profile},
 * {@code config}), the backend SPI ({@code pvops}, {@code flush}, {@code smp}, {@code knob},
 * {@code host}) and the types both share ({@code model}). The model's machinery under
 * {@code dev.pvtlb.internal}, the host model included, is exported to no one: the shipped
 * backends reach it through the SPI as a researcher's own do.
 */
@SuppressWarnings("requires-automatic") // HdrHistogram has no descriptor
module dev.pvtlb.guest {
    requires transitive net.bytebuddy;
    requires org.snakeyaml.engine;
    requires HdrHistogram;
    requires jdk.jfr;
    // sun.reflect.ReflectionFactory: a branch of a run copies model objects without their constructors (GraphCopy).
    requires jdk.unsupported;
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
    exports dev.pvtlb.host;

    uses dev.pvtlb.pvops.PvBackend;
    uses dev.pvtlb.internal.workload.Workload;
    provides dev.pvtlb.pvops.PvBackend with dev.pvtlb.internal.kernel.NativeBackend.Provider;
}
