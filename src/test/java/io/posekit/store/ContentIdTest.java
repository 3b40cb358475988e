package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.SourceFile;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContentIdTest {

    private static SourceFile file(String name, String content) {
        return new SourceFile(name, content.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void oneFileIsTheSha256OfItsBytes() {
        // sha256("abc"), the FIPS 180-2 test vector
        assertThat(ContentId.of(List.of(file("x.glb", "abc"))))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void severalFilesHashInNameOrderWithFraming() {
        String ab = ContentId.of(List.of(file("a.gltf", "{}"), file("b.bin", "xy")));
        assertThat(ContentId.of(List.of(file("b.bin", "xy"), file("a.gltf", "{}")))).isEqualTo(ab);
        // the same bytes split differently are different content
        assertThat(ContentId.of(List.of(file("a.gltf", "{}x"), file("b.bin", "y")))).isNotEqualTo(ab);
        assertThat(ContentId.isWellFormed(ab)).isTrue();
    }

    @Test
    void recognisesWellFormedIds() {
        assertThat(ContentId.isWellFormed("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")).isTrue();
        assertThat(ContentId.isWellFormed("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")).isFalse();
        assertThat(ContentId.isWellFormed("../etc")).isFalse();
        assertThat(ContentId.isWellFormed(null)).isFalse();
        String good = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assertThat(ContentId.isWellFormed(good.substring(1))).isFalse();
        assertThat(ContentId.isWellFormed(good + "0")).isFalse();
        // every character just outside the two ranges, at either end
        for (char c : new char[] {'/', ':', '`', 'g', 'A', ' '}) {
            assertThat(ContentId.isWellFormed(c + good.substring(1))).as("%s first", c).isFalse();
            assertThat(ContentId.isWellFormed(good.substring(0, 63) + c)).as("%s last", c).isFalse();
        }
        assertThat(ContentId.isWellFormed("0123456789abcdef".repeat(4))).isTrue();
    }
}
