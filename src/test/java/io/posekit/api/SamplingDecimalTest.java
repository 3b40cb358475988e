package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code Sampling.isDecimal} accepts exactly the plain decimal numbers of the grammar the API documents. */
class SamplingDecimalTest {

    /** The grammar as a regular expression: the reference the hand-written check must agree with. */
    private static final Pattern GRAMMAR = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    @Test
    void knownAnswers() {
        for (String ok : List.of("0", "1.5", "-2", "+3.", ".25", "1e3", "1E-3", "-0.5e+2", "007")) {
            assertThat(Sampling.isDecimal(ok)).as(ok).isTrue();
        }
        for (String bad : List.of("", ".", "-", "+.", "e3", "1e", "1e+", "NaN", "Infinity", "0x1p3", "1f", "1d",
                "1.5.2", " 1", "1 ", "--1", "1e3.5", "١")) {
            assertThat(Sampling.isDecimal(bad)).as(bad).isFalse();
        }
    }

    @Test
    void agreesWithTheGrammarOnRandomStrings() {
        Random random = new Random(20261125);
        String alphabet = "0123456789+-.eExfN ";
        List<String> disagreements = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            StringBuilder b = new StringBuilder();
            int length = random.nextInt(7);
            for (int k = 0; k < length; k++) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String s = b.toString();
            if (Sampling.isDecimal(s) != GRAMMAR.matcher(s).matches()) {
                disagreements.add(s);
            }
        }
        assertThat(disagreements).isEmpty();
    }
}
