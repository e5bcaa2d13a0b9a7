/**
 * The real machine: FFM bindings in jextract's shape with a JNA fallback, probes of how this
 * machine flushes remote TLBs, and real micro-benchmarks. JNA builds its proxies of the
 * binding interfaces by reflection, so their package is open to it.
 */
@SuppressWarnings("requires-automatic") // JNA's jar names its module in its manifest only
module dev.pvtlb.nativebridge {
    requires com.sun.jna;

    exports dev.pvtlb.nativebridge;
    exports dev.pvtlb.nativebridge.probe;
    exports dev.pvtlb.nativebridge.hostbench;

    opens dev.pvtlb.nativebridge.jna to com.sun.jna;
}
