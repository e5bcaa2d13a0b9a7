package dev.pvtlb.explore;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.run.Scenario;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A found hazard as a file {@code pvtlb replay} re-runs. Line based: a header naming the
 * scenario, backend, seed and settings, the hazard, the schedule (one choice per line: kind,
 * alternatives, answer), then a SHA-256 over all of that. Comment lines (#) carry the readable
 * trace and are not read back. Any edit, truncation or unknown line is refused with a reason.
 */
public record TraceFile(String scenario, String backend, long seed, List<String> settings, HazardKind kind, int cpu,
                        long timeNs, List<Choice> choices) {
    static final String MAGIC = "pvtlb-trace 1";

    public String write(List<String> readable) {
        StringBuilder body = new StringBuilder();
        body.append(MAGIC).append('\n');
        body.append("scenario ").append(scenario).append('\n');
        body.append("backend ").append(backend).append('\n');
        body.append("seed ").append(seed).append('\n');
        for (String s : settings) {
            body.append("set ").append(s).append('\n');
        }
        body.append("hazard ").append(kind).append(" cpu ").append(cpu).append(" time ").append(timeNs).append('\n');
        body.append("choices ").append(choices.size()).append('\n');
        for (Choice c : choices) {
            body.append("c ").append(c.point()).append(' ').append(c.options()).append(' ').append(c.taken()).append('\n');
        }
        StringBuilder out = new StringBuilder("# pvtlb hazard trace: replay with 'pvtlb replay FILE'. Do not edit: a checksum guards it.\n");
        out.append(body).append("checksum ").append(sha256(body.toString())).append('\n');
        out.append("# readable trace (last steps before the violation; not read by replay):\n");
        for (String l : readable) {
            out.append("# ").append(l).append('\n');
        }
        return out.toString();
    }

    public static TraceFile parse(String text) {
        List<String> lines = new ArrayList<>();
        for (String l : text.split("\n", -1)) {
            if (!l.isEmpty() && !l.startsWith("#")) {
                lines.add(l);
            }
        }
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
            throw new ModelException("not a pvtlb trace file (it must start with '" + MAGIC + "')");
        }
        String last = lines.get(lines.size() - 1);
        if (!last.startsWith("checksum ")) {
            throw new ModelException("trace file is truncated: its last line is not the checksum");
        }
        StringBuilder body = new StringBuilder();
        for (String l : lines.subList(0, lines.size() - 1)) {
            body.append(l).append('\n');
        }
        if (!sha256(body.toString()).equals(last.substring("checksum ".length()).strip())) {
            throw new ModelException("trace file was changed or damaged: its checksum does not match its contents");
        }
        String scenario = null;
        String backend = "native";
        long seed = 1;
        List<String> settings = new ArrayList<>();
        HazardKind kind = null;
        int cpu = -1;
        long time = -1;
        int expected = -1;
        List<Choice> choices = new ArrayList<>();
        for (int i = 1; i < lines.size() - 1; i++) {
            String l = lines.get(i);
            String[] w = l.split(" ");
            try {
                switch (w[0]) {
                    case "scenario" -> scenario = w[1];
                    case "backend" -> backend = w[1];
                    case "seed" -> seed = Long.parseLong(w[1]);
                    case "set" -> settings.add(l.substring(4));
                    case "hazard" -> {
                        kind = HazardKind.valueOf(w[1]);
                        cpu = Integer.parseInt(w[3]);
                        time = Long.parseLong(w[5]);
                    }
                    case "choices" -> expected = Integer.parseInt(w[1]);
                    case "c" -> {
                        int options = Integer.parseInt(w[2]);
                        int taken = Integer.parseInt(w[3]);
                        if (options < 2 || taken < 0 || taken >= options) {
                            throw new IllegalArgumentException("answer out of range");
                        }
                        choices.add(new Choice(ChoicePoint.valueOf(w[1]), options, taken));
                    }
                    default -> throw new IllegalArgumentException("unknown line");
                }
            } catch (RuntimeException e) {
                throw new ModelException("trace file line " + (i + 1) + " is malformed: '" + l + "'");
            }
        }
        if (scenario == null || kind == null || expected != choices.size()) {
            throw new ModelException("trace file is incomplete: it needs scenario, hazard and all " + Math.max(expected, 0)
                    + " choices (found " + choices.size() + ")");
        }
        return new TraceFile(scenario, backend, seed, List.copyOf(settings), kind, cpu, time, List.copyOf(choices));
    }

    /**
     * The built-in scenario this trace was found in, as it was explored: its backend, seed and
     * settings (each {@code KEY=VALUE} as {@link Scenario#set} takes it).
     */
    public Scenario toScenario() {
        Scenario s = Scenario.of(scenario).backend(backend).seed(seed);
        for (String kv : settings) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new ModelException("trace file setting must be KEY=VALUE, got '" + kv + "'");
            }
            s.set(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return s;
    }

    /** Whether {@code run} hit the hazard this trace records: its kind, on its CPU, at its time. */
    public boolean reproducedBy(ScheduleRun run) {
        return run.found() && run.hazard().kind() == kind && run.hazard().cpu() == cpu && run.hazard().timeNs() == timeNs;
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
