package dev.pvtlb.run;

import dev.pvtlb.model.InputFile;
import dev.pvtlb.model.ModelException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/**
 * A scenario file (YAML, documented in docs/scenarios.md): a thin layer over {@link Scenario}.
 * Every key becomes one {@link Scenario#set} call, so a file and {@code --set} accept the same
 * values and give the same errors, here prefixed with the file, line and key. The file is read
 * by {@link InputFile} and parsed into nodes only by {@link BoundedYaml} (no object construction,
 * no tags, no aliases, limits on size and nesting), so a hostile file costs no more than reading it.
 */
public final class ScenarioFile {
    /** Largest scenario file read. */
    public static final int MAX_BYTES = 256 * 1024;
    /** Deepest block or flow nesting accepted (a scenario needs 2). */
    public static final int MAX_DEPTH = BoundedYaml.MAX_DEPTH;

    private static final Set<String> TOP = Set.of("workload", "params", "profile", "topology", "vcpus", "memory", "host",
            "backend", "knobs", "reps", "seed", "ops", "threads", "quantum", "fidelity");

    private final String file;

    private ScenarioFile(String file) {
        this.file = file;
    }

    /** Whether {@code arg} names a scenario file rather than a built-in. */
    public static boolean looksLikeFile(String arg) {
        return arg.endsWith(".yaml") || arg.endsWith(".yml") || arg.contains("/") || arg.contains(java.io.File.separator);
    }

    public static Scenario load(Path path) {
        return parse(path.toString(), InputFile.read(path, "scenario file", MAX_BYTES));
    }

    /** Parses {@code text} as the scenario file {@code name}. */
    public static Scenario parse(String name, String text) {
        return new ScenarioFile(name).read(text);
    }

    private Scenario read(String text) {
        Optional<Node> root = BoundedYaml.compose(file, text, MAX_BYTES);
        if (root.isEmpty()) {
            throw new ModelException(file + ": empty scenario file (it needs at least 'workload: NAME')");
        }
        MappingNode top = mapping(root.get(), "the document");
        String workload = null;
        for (NodeTuple t : top.getValue()) {
            String k = key(t);
            if (!TOP.contains(k)) {
                throw error(t.getKeyNode(), k, "unknown key (keys: " + String.join(", ", TOP.stream().sorted().toList()) + ")");
            }
            if (k.equals("workload")) {
                workload = scalar(t.getValueNode(), k);
            }
        }
        if (workload == null) {
            throw new ModelException(file + ": no 'workload' key (a built-in name, see pvtlb scenarios)");
        }
        Scenario s;
        try {
            s = Scenario.of(workload);
        } catch (ModelException e) {
            throw error(valueOf(top, "workload"), "workload", e.getMessage());
        }
        for (NodeTuple t : top.getValue()) {
            String k = key(t);
            Node v = t.getValueNode();
            switch (k) {
                case "workload" -> { }
                case "backend" -> apply(v, k, () -> s.backend(scalar(v, k)));
                case "profile" -> apply(v, k, () -> {
                    String p = scalar(v, k);
                    dev.pvtlb.profile.Profile.load(p); // fail here, with the line, rather than at boot
                    s.set(k, p);
                });
                case "vcpus", "memory", "reps", "seed", "quantum", "fidelity", "speculation", "ops", "threads" ->
                        apply(v, k, () -> s.set(k, scalar(v, k)));
                case "params", "knobs" -> {
                    for (NodeTuple p : mapping(v, k).getValue()) {
                        String pk = key(p);
                        Node pv = p.getValueNode();
                        apply(pv, k + "." + pk, () -> {
                            if (k.equals("params") && !s.workload().parameters().containsKey(pk)) {
                                throw new ModelException("workload " + s.workload().name() + " has no parameter '" + pk + "' (parameters: "
                                        + String.join(", ", s.workload().parameters().keySet()) + ")");
                            }
                            s.set(pk, scalar(pv, k + "." + pk));
                        });
                    }
                }
                case "topology" -> topology(s, mapping(v, k));
                case "host" -> {
                    for (NodeTuple p : mapping(v, k).getValue()) {
                        String pk = key(p);
                        Node pv = p.getValueNode();
                        if (!pk.equals("pcpus") && !pk.equals("vms") && !pk.equals("others") && !pk.equals("topology")) {
                            throw error(p.getKeyNode(), "host." + pk, "unknown key (host keys: pcpus, vms, others, topology)");
                        }
                        // host.topology is the setting's own name; the others are set by their bare names.
                        String setting = pk.equals("topology") ? "host.topology" : pk;
                        apply(pv, "host." + pk, () -> s.set(setting, scalar(pv, "host." + pk)));
                    }
                }
                default -> throw error(t.getKeyNode(), k, "unknown key");
            }
        }
        return s;
    }

    private void topology(Scenario s, MappingNode m) {
        String sockets = "1";
        String cores = null;
        String threads = "1";
        for (NodeTuple p : m.getValue()) {
            String pk = key(p);
            String v = scalar(p.getValueNode(), "topology." + pk);
            switch (pk) {
                case "sockets" -> sockets = v;
                case "cores" -> cores = v;
                case "threads" -> threads = v;
                case "sharedTlb" -> apply(p.getValueNode(), "topology.sharedTlb", () -> s.set("smt.sharedTlb", v));
                default -> throw error(p.getKeyNode(), "topology." + pk, "unknown key (topology keys: sockets, cores, threads, sharedTlb)");
            }
        }
        if (cores == null) {
            throw error(m, "topology", "needs 'cores' (cores per socket)");
        }
        String spec = sockets + "x" + cores + "x" + threads;
        apply(m, "topology", () -> s.set("topology", spec));
    }

    private void apply(Node at, String key, Runnable r) {
        try {
            r.run();
        } catch (ModelException | IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(file + ":")) {
                throw e;
            }
            throw error(at, key, e.getMessage());
        }
    }

    private static Node valueOf(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                return t.getValueNode();
            }
        }
        return m;
    }

    private String key(NodeTuple t) {
        if (!(t.getKeyNode() instanceof ScalarNode k)) {
            throw error(t.getKeyNode(), "?", "keys must be plain names");
        }
        return k.getValue();
    }

    private MappingNode mapping(Node n, String key) {
        if (n instanceof MappingNode m) {
            // The low-level composer does not enforce setAllowDuplicateKeys(false); a key given
            // twice would silently take the later value, so refuse it here.
            java.util.Map<String, Integer> lines = new java.util.HashMap<>();
            for (NodeTuple t : m.getValue()) {
                String k = key(t);
                int line = t.getKeyNode().getStartMark().map(Mark::getLine).orElse(-1) + 1;
                Integer first = lines.putIfAbsent(k, line);
                if (first != null) {
                    throw error(t.getKeyNode(), (key.equals("the document") ? "" : key + ".") + k, "given twice (first on line " + first + ")");
                }
            }
            return m;
        }
        throw error(n, key, "must be a mapping of key: value lines");
    }

    private String scalar(Node n, String key) {
        if (n instanceof ScalarNode s) {
            String v = s.getValue();
            if (v.length() > 4096) {
                throw error(n, key, "value longer than 4096 characters");
            }
            return v;
        }
        throw error(n, key, "must be a single value, not a " + (n instanceof MappingNode ? "mapping" : "list"));
    }

    private ModelException error(Node at, String key, String message) {
        int line = at.getStartMark().map(Mark::getLine).orElse(-1) + 1;
        return new ModelException(file + (line > 0 ? ":" + line : "") + ": " + key + ": " + ModelException.firstLine(message));
    }
}
