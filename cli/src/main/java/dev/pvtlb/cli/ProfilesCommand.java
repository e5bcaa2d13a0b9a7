package dev.pvtlb.cli;

import dev.pvtlb.profile.Profile;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ReportFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb profiles}: the built-in machine profiles, each with the machine it describes, its
 * architecture and how many of its figures are ASSUMED; given a name (or a file), every figure of
 * that profile with its range where it is assumed. A scenario picks one with {@code profile=NAME}.
 */
@Command(name = "profiles", description = "List the built-in machine profiles, or show one profile's figures.")
final class ProfilesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "PROFILE", description = "a built-in profile's name or a profile file: print its figures")
    String profile;

    @Option(names = "--json", paramLabel = "FILE", description = "write the listing (or the profile's figures) as JSON")
    Path json;

    @Override
    public Integer call() {
        ReportFile.check(json, "--json");
        PrintWriter out = spec.commandLine().getOut();
        Object doc;
        if (profile == null) {
            List<Object> rows = new ArrayList<>();
            out.printf("%-20s %-6s %8s  %s%n", "profile", "arch", "assumed", "machine");
            for (String name : Profile.BUILT_IN) {
                Profile p = Profile.load(name);
                out.printf("%-20s %-6s %4d/%-3d  %s%n", p.name(), p.arch(), p.assumedRanges().size(), p.values().size(), p.machine());
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("name", p.name());
                row.put("arch", p.arch());
                row.put("machine", p.machine());
                row.put("figures", p.values().size());
                row.put("assumed", p.assumedRanges().size());
                rows.add(row);
            }
            out.println();
            out.println("a scenario runs on one with --set profile=NAME (or a file: profile=PATH, which may 'extends: NAME');");
            out.println("pvtlb profiles NAME prints its figures, and which are ASSUMED with their ranges");
            doc = Map.of("profiles", rows);
        } else {
            Profile p = Profile.load(profile);
            out.printf("profile %s (%s): %s%n", p.name(), p.arch(), p.machine());
            Map<String, Object> figures = new LinkedHashMap<>();
            for (var e : new java.util.TreeMap<>(p.values()).entrySet()) {
                Profile.Range r = p.assumedRanges().get(e.getKey());
                out.printf("  %-34s %14s%s%n", e.getKey(), Json.number(e.getValue()),
                        r == null ? "" : "   ASSUMED " + Json.number(r.low()) + ".." + Json.number(r.high()));
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("value", e.getValue());
                if (r != null) {
                    f.put("assumed_low", r.low());
                    f.put("assumed_high", r.high());
                }
                figures.put(e.getKey(), f);
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", p.name());
            m.put("arch", p.arch());
            m.put("machine", p.machine());
            m.put("figures", figures);
            doc = m;
        }
        if (json != null) {
            ReportFile.write(json, "--json", Json.write(doc));
        }
        return 0;
    }
}
