package dev.pvtlb.cli;

import dev.pvtlb.profile.Profile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The figures of a profile marked ASSUMED, read from its comments: what {@code validate
 * --sensitivity} would vary. A profile is a flat {@code key: value} file ({@link Profile#parse})
 * with no field for a figure's low..high range, so today no range can be read; sensitivity
 * refuses to run rather than make ranges up.
 *
 * <p>A key is ASSUMED when the comment block just above it says so; a key with no comment of
 * its own belongs to the group above it (psc.pdpte and psc.pde under psc.pml4e's comment). A
 * blank line ends a group.
 */
final class AssumedFigures {
    private AssumedFigures() {}

    /** The ASSUMED keys of a profile's text, in file order. */
    static List<String> in(String profileText) {
        List<String> assumed = new ArrayList<>();
        StringBuilder comment = new StringBuilder();
        boolean groupAssumed = false;
        for (String raw : profileText.split("\n", -1)) {
            String line = raw.strip();
            if (line.isEmpty()) {
                comment.setLength(0);
                groupAssumed = false;
            } else if (line.startsWith("#")) {
                comment.append(line).append('\n');
            } else if (line.indexOf(':') > 0) {
                if (comment.length() > 0) {
                    groupAssumed = comment.indexOf("ASSUMED") >= 0;
                    comment.setLength(0);
                }
                String key = line.substring(0, line.indexOf(':')).strip();
                if (groupAssumed && !key.equals("name") && !key.equals("arch") && !key.equals("extends")) {
                    assumed.add(key);
                }
            }
        }
        return assumed;
    }

    /** The text of a built-in profile, or null when {@code name} is not one. */
    static String builtIn(String name) {
        try (InputStream in = Profile.class.getResourceAsStream("/dev/pvtlb/profile/" + name + ".yaml")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Why {@code --sensitivity} cannot run on {@code profile}: one line naming the figures without a range. */
    static String whySensitivityCannotRun(String profile) {
        String text = builtIn(profile);
        if (text == null) {
            return "--sensitivity: profile " + profile + " is not a built-in profile; its ASSUMED figures and their ranges are unknown";
        }
        List<String> keys = in(text);
        return "--sensitivity: profile " + profile + " gives no machine-readable low..high range for any of its " + keys.size()
                + " ASSUMED figures (" + String.join(", ", keys) + "); sensitivity is not run until it does";
    }
}
