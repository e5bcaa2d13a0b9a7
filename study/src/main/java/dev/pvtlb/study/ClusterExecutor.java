package dev.pvtlb.study;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a study somewhere else than this JVM's thread pool (the spark module provides one,
 * found with {@link java.util.ServiceLoader} when it is on the class path). It must return the
 * rows of {@link RunRows#run} in grid order, so the files written from them are the same as a
 * local sweep's.
 */
public interface ClusterExecutor {
    /** Runs every run of a grid study; {@code out} is where it may write its own extra files. */
    List<LinkedHashMap<String, Object>> sweep(Study study, List<StudyRun> runs, Path out, String master,
                                              Map<String, String> conf) throws IOException;

    /** Runs an explore campaign, each wave of slices as one job. */
    List<Campaign.Outcome> campaign(Study study, Path out, String master, Map<String, String> conf) throws IOException;
}
