package dev.pvtlb.validation.calibration;

import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import dev.pvtlb.nativebridge.probe.HostProbe;
import dev.pvtlb.profile.Profile;

/**
 * Calibration: this host's primitive costs (syscall, fault, munmap, mprotect, cache-line
 * transfer, remote shootdown) measured with native-bridge's benchmarks and mapped onto the keys of
 * the default profile they mean, so that the model can be run as this machine
 * ({@code pvtlb run --set profile=FILE}). The entry point {@code pvtlb calibrate}, {@code pvtlb
 * host compare} and {@code pvtlb validate --host} share, and an embedding program can call.
 */
public final class Calibration {
    private Calibration() {}

    /**
     * Measures this host and maps the figures onto {@link Profile#DEFAULT}. Takes seconds; each
     * benchmark is bounded by {@code limits}.
     *
     * @param os the native binding to measure through
     * @param threads remote threads in the shootdown measurements
     * @param cpus the CPUs to pin to, the initiator's first
     */
    public static CalibratedProfile calibrate(NativeOs os, int threads, int[] cpus, BenchLimits limits) {
        HostProbe probe = new HostProbe();
        HostMeasurements m = HostMeasurements.measure(os, probe, threads, cpus, limits);
        HostPrimitives p = HostPrimitives.measure(os, probe, threads, cpus, limits);
        return new CalibratedProfile(m, p, Profile.load(Profile.DEFAULT));
    }
}
