package dev.pvtlb.run;

import dev.pvtlb.model.ModelException;
import java.util.ArrayDeque;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * The one way pvtlb parses a YAML file it was given (scenario files, study files): within a size
 * limit, no deeper than {@link #MAX_DEPTH}, no aliases of collections (so no "billion laughs"),
 * no recursive or non-scalar keys, no tags that construct objects. Nesting is checked before the
 * parser runs, since the parser recurses once per level and a file of 100 000 brackets would
 * overflow the stack. Every problem is a one-line {@link ModelException} "FILE[:LINE]: why".
 */
public final class BoundedYaml {
    /** Deepest block or flow nesting accepted (a scenario needs 2, a study 4). */
    public static final int MAX_DEPTH = 16;

    private BoundedYaml() {}

    /**
     * Parses {@code text} (the file {@code file}) into plain values: {@code Map} (in file order),
     * {@code List}, {@code String}, {@code Integer}, {@code Long}, {@code BigInteger},
     * {@code Double}, {@code Boolean} or null; null for an empty document.
     */
    public static Object load(String file, String text, int maxChars) {
        checkSize(file, text, maxChars);
        checkDepth(file, text);
        try {
            return new Load(settings(file, maxChars)).loadFromString(text);
        } catch (YamlEngineException e) {
            throw invalid(file, e);
        } catch (StackOverflowError e) {
            throw new ModelException(file + ": nested too deeply");
        }
    }

    /** The node tree of {@code text}, for a reader that reports errors by line (empty for an empty document). */
    static Optional<Node> compose(String file, String text, int maxChars) {
        checkSize(file, text, maxChars);
        checkDepth(file, text);
        try {
            // The composer itself, not api.lowlevel.Compose: that package is not exported by its module.
            LoadSettings settings = settings(file, maxChars);
            return new Composer(settings, new ParserImpl(settings, new StreamReader(settings, text))).getSingleNode();
        } catch (YamlEngineException e) {
            throw invalid(file, e);
        } catch (StackOverflowError e) {
            throw new ModelException(file + ": nested too deeply");
        }
    }

    private static LoadSettings settings(String file, int maxChars) {
        return LoadSettings.builder().setLabel(file).setAllowDuplicateKeys(false).setMaxAliasesForCollections(0)
                .setAllowRecursiveKeys(false).setCodePointLimit(Math.max(1, maxChars)).setAllowNonScalarKeys(false).build();
    }

    private static void checkSize(String file, String text, int maxChars) {
        if (text.length() > maxChars) {
            throw new ModelException(file + ": larger than " + maxChars + " characters");
        }
    }

    private static ModelException invalid(String file, YamlEngineException e) {
        if (e instanceof MarkedYamlEngineException m) {
            int line = m.getProblemMark().or(m::getContextMark).map(k -> k.getLine() + 1).orElse(0);
            return new ModelException(file + (line > 0 ? ":" + line : "") + ": not valid YAML: " + ModelException.firstLine(m.getProblem()));
        }
        return new ModelException(file + ": not valid YAML: " + ModelException.firstLine(e.getMessage()));
    }

    /**
     * Rejects nesting deeper than {@link #MAX_DEPTH}: block indentation levels, "- " list items
     * and open flow brackets, counted line by line.
     */
    static void checkDepth(String file, String text) {
        int brackets = 0;
        ArrayDeque<Integer> indents = new ArrayDeque<>();
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
}
