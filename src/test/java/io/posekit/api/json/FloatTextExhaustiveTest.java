package io.posekit.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@link FloatText} against {@link Float#toString(float)} for every one of the 2^32 float bit patterns: some minutes
 * on all cores, so only on request ({@code ./mvnw test -Dtest=FloatTextExhaustiveTest -Dposekit.floattext.exhaustive=true});
 * {@link FloatTextTest} covers millions of seeded values in every build.
 */
@EnabledIfSystemProperty(named = "posekit.floattext.exhaustive", matches = "true")
class FloatTextExhaustiveTest {

    @Test
    void everyFiniteFloatIsWrittenAsFloatToStringWritesIt() {
        AtomicLong finite = new AtomicLong();
        List<String> mismatches = Collections.synchronizedList(new ArrayList<>());
        // 2^16 slices of 2^16 bit patterns each
        IntStream.range(0, 1 << 16).parallel().forEach(slice -> {
            byte[] out = new byte[FloatText.MAX_LENGTH];
            long count = 0;
            for (int low = 0; low < 1 << 16; low++) {
                float v = Float.intBitsToFloat(slice << 16 | low);
                if (!Float.isFinite(v)) {
                    continue;
                }
                count++;
                int end = FloatText.write(v, out, 0);
                String expected = Float.toString(v);
                if (end != expected.length() || !expected.equals(new String(out, 0, end, StandardCharsets.US_ASCII))) {
                    if (mismatches.size() < 20) {
                        mismatches.add(Integer.toHexString(slice << 16 | low) + ": " + expected + " vs "
                                + new String(out, 0, end, StandardCharsets.US_ASCII));
                    }
                }
            }
            finite.addAndGet(count);
        });
        assertThat(mismatches).isEmpty();
        // 2^32 patterns less the 2 · 2^23 whose exponent is all ones (the NaNs and the two infinities)
        assertThat(finite.get()).isEqualTo((1L << 32) - (1L << 24));
    }
}
