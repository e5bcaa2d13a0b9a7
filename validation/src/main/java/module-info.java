/**
 * Validation and calibration: the experiments of docs/validation.md run and judged against their
 * published figures (with their sensitivity, steady state and fidelity check), the validation
 * against this host, and this host's primitive costs measured into a profile. Its own module so
 * that the command line, the Spark job and an embedding program call one API
 * ({@code dev.pvtlb.validation.Validation}, {@code dev.pvtlb.validation.calibration.Calibration}).
 */
module dev.pvtlb.validation {
    requires transitive dev.pvtlb.guest; // Fidelity, RunReport in the API
    requires transitive dev.pvtlb.report; // ProgressBar in ValidationOptions, GeneratedBlock
    requires transitive dev.pvtlb.nativebridge; // NativeOs, BenchLimits, HostReport in the host and calibration API
    requires dev.pvtlb.study; // ScenarioArgs, LocalRuns
    // The experiments run on kvm and arm64: their backends must be in the module graph for ServiceLoader.
    requires dev.pvtlb.hypervisors;

    exports dev.pvtlb.validation;
    exports dev.pvtlb.validation.calibration;
}
