package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;

/** The {@code --cpus} option of the host commands: CPUs in the order given, the first one the initiator's. */
final class HostCpus {
    private HostCpus() {}

    /** A comma-separated list of online CPUs; null means all of them, cpu0 first. */
    static int[] parse(String list, int online) {
        if (list == null) {
            int[] all = new int[online];
            for (int i = 0; i < online; i++) {
                all[i] = i;
            }
            return all;
        }
        String[] parts = list.split(",", -1); // keep empty parts: "," or "0," is a typo, not "no CPUs"
        int[] cpus = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                cpus[i] = Integer.parseInt(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new ModelException("--cpus must be a comma-separated list of CPU numbers, got '" + list + "'");
            }
            if (cpus[i] < 0 || cpus[i] >= online) {
                throw new ModelException("--cpus names cpu" + cpus[i] + " but this host has " + online + " online CPUs");
            }
        }
        return cpus;
    }
}
