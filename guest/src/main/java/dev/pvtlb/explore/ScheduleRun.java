package dev.pvtlb.explore;

import dev.pvtlb.hazard.Hazard;
import java.util.List;

/** What one schedule did: its choices, the first hazard (or null) and the steps it took. */
public record ScheduleRun(List<Choice> choices, Hazard hazard, long steps, List<String> stepLog) {
    public boolean found() {
        return hazard != null;
    }
}
