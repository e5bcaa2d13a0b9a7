package dev.pvtlb.validation;

import java.util.List;

/**
 * One row of the tables of {@code validation.md}: a published measurement and the
 * emulated runs that repeat it. It passes when every figure is inside its band.
 *
 * @param source the public source: author, thread or patch title, list and date
 * @param setup the published machine and workload, and the emulated runs' settings
 * @param machine the built-in profile of the source's machine ({@code pvtlb profiles}): every run
 *                of the experiment boots with {@code profile=machine}; for {@code validate --host}
 *                the profile given, or null when each round calibrates its own
 * @param curve a per-parameter series shown beside the figures, or null
 */
public record ValidationExperiment(String id, String source, String setup, String machine, List<ValidationRun> runs,
                            List<ValidationFigure> figures, ValidationCurve curve) {
    public ValidationExperiment {
        runs = runs.stream().map(r -> r.onProfile(machine)).toList();
    }

    /** The machine's profile and what it describes, for the reports. */
    public String machineName() {
        return machine == null ? "calibrated" : machine;
    }

    /** What the machine is, from its profile. */
    public String machineDescription() {
        return machine == null ? "this host, calibrated each round" : dev.pvtlb.profile.Profile.load(machine).machine();
    }
}
