package dev.pvtlb.hazard;

/** One hazard found in a run: when, on which CPU, and a one-line account naming the kernel path. */
public record Hazard(HazardKind kind, long timeNs, int cpu, String detail) {
    @Override
    public String toString() {
        return String.format("%s at %d ns on cpu%d: %s", kind, timeNs, cpu, detail);
    }
}
