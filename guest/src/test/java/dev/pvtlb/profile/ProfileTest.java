package dev.pvtlb.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.model.ModelException;
import org.junit.jupiter.api.Test;

class ProfileTest {
    @Test
    void theBuiltInProfileDefinesEveryKey() {
        Profile p = Profile.load("x86-skylake");
        assertEquals(Profile.KEYS, p.values().keySet());
        assertEquals(100, p.ns("invlpg.ns"));
        assertEquals(33, p.integer("flush.ceiling.pages"));
        assertEquals(1300, p.ps("access.ns"));
    }

    @Test
    void aUserProfileExtendsABuiltIn() {
        Profile p = Profile.parse("extends: x86-skylake\nname: mine\ninvlpg.ns: 250 # measured\n", "mine.yaml");
        assertEquals("mine", p.name());
        assertEquals(250, p.ns("invlpg.ns"));
        assertEquals(33, p.ns("flush.full.ns"));
    }

    @Test
    void errorsNameFileLineAndKey() {
        assertEquals("p.yaml:2: unknown profile key 'invlpg'", assertThrows(ModelException.class,
                () -> Profile.parse("extends: x86-skylake\ninvlpg: 3\n", "p.yaml")).getMessage());
        assertEquals("p.yaml:2: invlpg.ns must be a number, got 'fast'", assertThrows(ModelException.class,
                () -> Profile.parse("extends: x86-skylake\ninvlpg.ns: fast\n", "p.yaml")).getMessage());
        assertEquals("p.yaml:2: invlpg.ns must be between 0 and 1e12, got -1.0", assertThrows(ModelException.class,
                () -> Profile.parse("extends: x86-skylake\ninvlpg.ns: -1\n", "p.yaml")).getMessage());
        assertEquals("p.yaml: profile lacks access.ns", assertThrows(ModelException.class,
                () -> Profile.parse("name: x\n", "p.yaml")).getMessage());
        assertThrows(ModelException.class, () -> Profile.load("no-such-profile"));
    }
}
