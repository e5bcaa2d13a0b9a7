package dev.pvtlb.nativebridge.probe;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The kernel's "cpulist" format (Documentation/admin-guide/cputopology.rst), e.g. "0-3,8,10-11",
 * as used by thread_siblings_list. Sibling lists from sysfs and ones rebuilt from
 * /proc/cpuinfo both go through {@link #format} so they compare equal.
 */
public final class CpuList {
    private CpuList() {}

    public static int[] parse(String list) {
        String s = list.trim();
        if (s.isEmpty()) {
            return new int[0];
        }
        return Arrays.stream(s.split(","))
                .flatMapToInt(part -> {
                    int dash = part.indexOf('-');
                    if (dash < 0) {
                        return IntStream.of(Integer.parseInt(part.trim()));
                    }
                    return IntStream.rangeClosed(Integer.parseInt(part.substring(0, dash).trim()),
                            Integer.parseInt(part.substring(dash + 1).trim()));
                })
                .sorted().distinct().toArray();
    }

    /** Ranges for runs of two or more consecutive CPUs, as the kernel's %*pbl prints them. */
    public static String format(int[] cpus) {
        int[] sorted = IntStream.of(cpus).sorted().distinct().toArray();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sorted.length; i++) {
            int start = sorted[i];
            while (i + 1 < sorted.length && sorted[i + 1] == sorted[i] + 1) {
                i++;
            }
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(start);
            if (sorted[i] != start) {
                out.append('-').append(sorted[i]);
            }
        }
        return out.toString();
    }

    public static String format(List<Integer> cpus) {
        return format(cpus.stream().mapToInt(Integer::intValue).toArray());
    }

    public static String normalize(String list) {
        return format(parse(list));
    }
}
