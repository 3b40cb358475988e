package io.posekit.asset.ktx2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * posekit's KTX2 transcoding against Binomial's own: {@code tools/ktx2-golden/run.sh} (CI runs it before the tests)
 * encodes gradients, noise and CesiumMan's texture with basisu 1.16 and decodes each with basisu's transcoder. ETC1S
 * must match bit for bit in red, green and blue (the ETC1 transcode basisu writes is lossless, so its pixels are the
 * RGBA32 transcode's); alpha, which basisu only writes through the lossy ETC2 EAC transcode, within 3 levels of that
 * (measured: 3 on the alpha gradient, 0 on its mipmapped twin). Skipped when the golden files are absent.
 */
class Ktx2GoldenTest {

    static Path dir() {
        return Path.of(System.getProperty("posekit.ktx2-golden.dir", "target/ktx2-golden")).toAbsolutePath();
    }

    static Stream<JsonNode> entries() throws IOException {
        Path index = dir().resolve("textures/index.json");
        if (!Files.isRegularFile(index)) {
            return Stream.of(JsonMapper.builder().build().createObjectNode().put("name", "absent"));
        }
        List<JsonNode> all = JsonMapper.builder().build().readTree(index.toFile()).valueStream().toList();
        assertThat(all).hasSize(16);
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void decodesLikeBasisusTranscoder(JsonNode entry) throws IOException {
        assumeTrue(entry.has("ktx2"), dir() + " is absent (run tools/ktx2-golden/run.sh)");
        Path textures = dir().resolve("textures");
        byte[] file = Files.readAllBytes(textures.resolve(entry.get("ktx2").asString()));
        if (entry.get("mode").asString().equals("uastc")) {
            assertThatThrownBy(() -> Ktx2Decoder.decode(file, "t.ktx2", new DecodeBudget(1 << 30)))
                    .isInstanceOf(ImportException.class)
                    .hasMessageStartingWith("t.ktx2: a UASTC KTX2 texture")
                    .extracting(e -> ((ImportException) e).kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
            return;
        }
        RgbaImage image = Ktx2Decoder.decode(file, "t.ktx2", new DecodeBudget(1 << 30));
        BufferedImage rgb = ImageIO.read(textures.resolve(entry.get("etc1").asString()).toFile());
        BufferedImage etc2 = ImageIO.read(textures.resolve(entry.get("etc2").asString()).toFile());
        BufferedImage source = ImageIO.read(textures.resolve(entry.get("source").asString()).toFile());
        assertThat(image.width()).isEqualTo(source.getWidth());
        assertThat(image.height()).isEqualTo(source.getHeight());
        assertThat(image.hasAlpha()).isEqualTo(entry.get("name").asString().startsWith("alpha"));
        int differing = 0;
        String first = null;
        int maxAlphaError = 0;
        for (int y = 0; y < image.height(); y++) {
            for (int x = 0; x < image.width(); x++) {
                int got = image.argb(x, y);
                if ((got & 0xFFFFFF) != (rgb.getRGB(x, y) & 0xFFFFFF)) {
                    differing++;
                    if (first == null) {
                        first = "(" + x + ", " + y + "): " + Integer.toHexString(got) + " against "
                                + Integer.toHexString(rgb.getRGB(x, y));
                    }
                }
                int alpha = got >>> 24;
                maxAlphaError = Math.max(maxAlphaError, Math.abs(alpha - (etc2.getRGB(x, y) >>> 24)));
            }
        }
        assertThat(differing).as("pixels whose RGB differs from basisu's, first %s", first).isZero();
        if (image.hasAlpha()) {
            assertThat(maxAlphaError).as("largest alpha difference from basisu's ETC2 EAC transcode").isLessThanOrEqualTo(3);
        } else {
            assertThat(maxAlphaError).isZero();
        }
    }
}
