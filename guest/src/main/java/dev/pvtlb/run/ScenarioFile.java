package dev.pvtlb.run;

import dev.pvtlb.ModelException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * A scenario file (YAML, documented in docs/scenarios.md): a thin layer over {@link Scenario}.
 * Every key becomes one {@link Scenario#set} call, so a file and {@code --set} accept the same
 * values and give the same errors, here prefixed with the file, line and key. The file is
 * parsed into nodes only (no object construction, no tags, no aliases), with limits on size and
 * nesting, so a hostile file costs no more than reading it.
 */
public final class ScenarioFile {
    /** Largest scenario file read. */
    public static final int MAX_BYTES = 256 * 1024;
    /** Deepest block or flow nesting accepted (a scenario needs 2). */
    public static final int MAX_DEPTH = 16;

    private static final Set<String> TOP = Set.of("workload", "params", "profile", "topology", "vcpus", "memory", "host",
            "backend", "knobs", "reps", "seed", "ops", "threads", "quantum");

    private final String file;

    private ScenarioFile(String file) {
        this.file = file;
    }

    /** Whether {@code arg} names a scenario file rather than a built-in. */
    public static boolean looksLikeFile(String arg) {
        return arg.endsWith(".yaml") || arg.endsWith(".yml") || arg.contains("/") || arg.contains(java.io.File.separator);
    }

    public static Scenario load(Path path) {
        String name = path.toString();
        byte[] bytes;
        try {
            if (!Files.isRegularFile(path)) {
                throw new ModelException(name + ": no such scenario file");
            }
            if (Files.size(path) > MAX_BYTES) {
                throw new ModelException(name + ": scenario file larger than " + MAX_BYTES + " bytes");
            }
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new ModelException(name + ": cannot read: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ModelException(name + ": not a UTF-8 text file");
        }
        return parse(name, text);
    }

    /** Parses {@code text} as the scenario file {@code name}. */
    public static Scenario parse(String name, String text) {
        return new ScenarioFile(name).read(text);
    }

    private Scenario read(String text) {
        if (text.length() > MAX_BYTES) {
            throw new ModelException(file + ": scenario file larger than " + MAX_BYTES + " characters");
        }
        checkDepth(text);
        LoadSettings settings = LoadSettings.builder().setLabel(file).setAllowDuplicateKeys(false)
                .setMaxAliasesForCollections(0).setAllowRecursiveKeys(false).setCodePointLimit(MAX_BYTES)
                .setAllowNonScalarKeys(false).build();
        Optional<Node> root;
        try {
            // The composer itself, not api.lowlevel.Compose: that package is not exported by the module.
            root = new Composer(settings, new ParserImpl(settings, new StreamReader(settings, text))).getSingleNode();
        } catch (MarkedYamlEngineException e) {
            int line = e.getProblemMark().or(e::getContextMark).map(m -> m.getLine() + 1).orElse(0);
            throw new ModelException(file + (line > 0 ? ":" + line : "") + ": not valid YAML: " + oneLine(e.getProblem()));
        } catch (YamlEngineException e) {
            throw new ModelException(file + ": not valid YAML: " + oneLine(e.getMessage()));
        } catch (StackOverflowError e) {
            throw new ModelException(file + ": nested too deeply");
        }
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
                    dev.pvtlb.internal.profile.Profile.load(p); // fail here, with the line, rather than at boot
                    s.set(k, p);
                });
                case "vcpus", "memory", "reps", "seed", "quantum", "ops", "threads" ->
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
                        if (!pk.equals("pcpus") && !pk.equals("vms")) {
                            throw error(p.getKeyNode(), "host." + pk, "unknown key (host keys: pcpus, vms)");
                        }
                        apply(pv, "host." + pk, () -> s.set(pk, scalar(pv, "host." + pk)));
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
        return new ModelException(file + (line > 0 ? ":" + line : "") + ": " + key + ": " + oneLine(message));
    }

    /**
     * Rejects nesting deeper than {@link #MAX_DEPTH} before the parser sees it: the parser
     * recurses per level, so a file of 100 000 brackets would otherwise overflow the stack.
     */
    private void checkDepth(String text) {
        int brackets = 0;
        java.util.ArrayDeque<Integer> indents = new java.util.ArrayDeque<>();
        String[] lines = text.split("\n", -1);
        for (int ln = 0; ln < lines.length; ln++) {
            String l = lines[ln];
            int i = 0;
            while (i < l.length() && l.charAt(i) == ' ') {
                i++;
            }
            int indent = i;
            int dashes = 0;
            while (i + 1 < l.length() && l.charAt(i) == '-' && l.charAt(i + 1) == ' ') {
                dashes++;
                i += 2;
                while (i < l.length() && l.charAt(i) == ' ') {
                    i++;
                }
            }
            if (i < l.length() && l.charAt(i) != '#') {
                while (!indents.isEmpty() && indents.peek() >= indent) {
                    indents.pop();
                }
                indents.push(indent);
            }
            for (; i < l.length(); i++) {
                char c = l.charAt(i);
                if (c == '[' || c == '{') {
                    brackets++;
                } else if ((c == ']' || c == '}') && brackets > 0) {
                    brackets--;
                }
                if (indents.size() + dashes + brackets > MAX_DEPTH) {
                    throw new ModelException(file + ":" + (ln + 1) + ": nested more than " + MAX_DEPTH + " levels deep");
                }
            }
            if (indents.size() + dashes > MAX_DEPTH) {
                throw new ModelException(file + ":" + (ln + 1) + ": nested more than " + MAX_DEPTH + " levels deep");
            }
        }
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
