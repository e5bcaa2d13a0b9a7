package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OneLineTest {
    @Test
    void keepsTheFirstLineStripped() {
        assertEquals("bad.yaml:3: not valid YAML", OneLine.of("  bad.yaml:3: not valid YAML\n in 'reader', line 3\n"));
        assertEquals("", OneLine.of(null));
    }

    @Test
    void dropsJavaClassNamesInFrontOfAReason() {
        assertEquals("Invalid value for option '--out': (Illegal char <\u0000>)".replace('\u0000', '?'),
                OneLine.of("Invalid value for option '--out': (java.nio.file.InvalidPathException: Illegal char <\u0000>)"));
    }

    @Test
    void controlCharactersFromTheInputCannotBreakTheLine() {
        assertEquals("unknown knob 'a?b?c'", OneLine.of("unknown knob 'a\rb\u001bc'"));
        assertEquals("x?y", OneLine.of("x\u2028y"));
    }
}
