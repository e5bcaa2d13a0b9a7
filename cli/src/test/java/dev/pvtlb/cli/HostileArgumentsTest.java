package dev.pvtlb.cli;

import static dev.pvtlb.cli.HostileInputTest.assertRejected;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Hostile argument lists for the commands beyond run and compare (HostileInputTest): explore,
 * bench, host compare, calibrate, sweep, replay and validate. Each list carries one defect that is caught
 * before any work, placed first among the options, then noise; each must end in exit 2 and one line.
 */
class HostileArgumentsTest {
    /** A command, and defects each of which it must refuse. */
    record Command(String line, List<String> defects) { }

    static final List<Command> COMMANDS = List.of(
            new Command("explore gup-fast-vs-free", List.of("--budget -1", "--budget 0", "--budget x", "--strategy nope",
                    "--depth 0", "--depth 100000", "--bound -1", "--seconds -1", "--seconds NaN", "--seed x",
                    "--backend vmware", "--set vcpus=-4", "--set nosuchknob=1", "--set threads", "--no-such-option",
                    "--set profile=/nonexistent/p.yaml", "--set others=maybe",
                    "--backend kvm --set vms=2 --set others=same", "--set host.topology=2x2", "--set host.topology=2x2x1",
                    "--backend kvm --set host.topology=0x1x1", "--backend kvm --set host.topology=2x2x2")),
            new Command("explore no-such-scenario", List.of("--budget 1")),
            new Command("bench", List.of("--only no-such-entry", "--repeat 0", "--repeat -3", "--repeat x",
                    "--repeat 1000000", "--no-such-option")),
            new Command("host compare munmap-storm", List.of("--threads 0", "--threads -1", "--threads 100000",
                    "--threads x", "--iterations 0", "--iterations 100000000", "--cpus 999999", "--cpus x,y", "--cpus ,",
                    "--bridge nope", "--profile no-such-profile", "--profile /nonexistent/p.yaml", "--profile /dev/zero",
                    "--profile /", "--backend vmware")),
            new Command("host compare no-such-scenario", List.of("--threads 1")),
            new Command("calibrate", List.of("--threads 0", "--threads 100000", "--iterations 0", "--iterations -1",
                    "--cpus 999999", "--bridge nope", "--no-such-option")),
            new Command("sweep", List.of("/nonexistent/study.yaml", "/dev/zero", "/", "''")),
            // A valid study of 200 runs: each defect must stop it before the first run.
            new Command("sweep ../docs/studies/smt-dedup-grid.yaml", List.of("--parallel 0", "--parallel 5000",
                    "--max-runs 0", "--max-runs 1", "--max-runs x", "--spark-conf novalue", "--spark-conf =x",
                    "--out /sys/pvtlb-out", "--out /nonexistent/dir/out")),
            new Command("replay", List.of("/nonexistent/t.txt", "/dev/zero", "/")),
            new Command("validate", List.of("--only nosuch", "--only kvm-boost,nosuch", "--sensitivity --only nosuch",
                    "--parallel 0", "--parallel x", "--json /nonexistent/dir/v.json")));

    static final List<String> NOISE = List.of("--quiet", "x=y", "=", "", " ", "-", "--", "-x", "--frob", "1", "-1", "99999999999",
            "\u0000", "\uFFFF", "munmap-storm");

    @Property(tries = 600)
    void hostileArgumentListsAreRejectedInOneLine(@ForAll("argLists") List<String> args) {
        assertRejected(String.join(" ", args), args.toArray(String[]::new));
    }

    @Provide
    Arbitrary<List<String>> argLists() {
        Arbitrary<List<String>> noise = Arbitraries.of(NOISE).list().ofMaxSize(4);
        Arbitrary<String> randomToken = Arbitraries.strings().all().ofMinLength(1).ofMaxLength(30);
        Arbitrary<List<String>> base = Arbitraries.of(COMMANDS).flatMap(c -> Arbitraries.of(c.defects()).map(d -> {
            List<String> a = new ArrayList<>(List.of(c.line().split(" ")));
            a.addAll(List.of(d.split(" ")));
            return a;
        }));
        return Combinators.combine(base, noise, randomToken, Arbitraries.integers().between(0, 3)).as((b, n, rnd, where) -> {
            List<String> a = new ArrayList<>(b);
            if (where == 0) {
                a.add(rnd);
            }
            a.addAll(n);
            return a;
        });
    }
}
