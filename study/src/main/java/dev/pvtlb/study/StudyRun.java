package dev.pvtlb.study;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** One run of a study's grid: its place in grid order, its axis values (in axis order) and seed. */
public record StudyRun(int index, Map<String, String> point, long seed) implements Serializable {
    public StudyRun {
        point = Collections.unmodifiableMap(new LinkedHashMap<>(point));
    }
}
