package io.posekit.asset.ktx2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.DecodeBudget;
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
 * encodes gradients (one with alpha), noise and CesiumMan's texture with basisu 1.16 as ETC1S and UASTC (with and
 * without Zstandard, with and without mipmaps) and transcodes each to RGBA32 with Binomial's transcoder as three.js
 * 0.187 ships it for KTX2Loader. Every pixel must match bit for bit; for ETC1S also basisu's own ETC1 transcode
 * (lossless, decoded by basisu), a second witness of the colour. Skipped when the golden files are absent.
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
    void decodesLikeBinomialsTranscoder(JsonNode entry) throws IOException {
        assumeTrue(entry.has("ktx2"), dir() + " is absent (run tools/ktx2-golden/run.sh)");
        Path textures = dir().resolve("textures");
        byte[] file = Files.readAllBytes(textures.resolve(entry.get("ktx2").asString()));
        RgbaImage image = Ktx2Decoder.decode(file, "t.ktx2", new DecodeBudget(1 << 30));
        assertThat(image.width()).isEqualTo(entry.get("width").asInt());
        assertThat(image.height()).isEqualTo(entry.get("height").asInt());
        assertThat(image.hasAlpha()).isEqualTo(entry.get("hasAlpha").asBoolean());
        assertThat(image.hasAlpha()).isEqualTo(entry.get("name").asString().startsWith("alpha"));
        byte[] expected = Files.readAllBytes(textures.resolve(entry.get("rgba").asString()));
        assertThat(expected).hasSize(image.rgba().length);
        int differing = 0;
        String first = null;
        for (int i = 0; i < expected.length; i += 4) {
            for (int c = 0; c < 4; c++) {
                if (expected[i + c] != image.rgba()[i + c]) {
                    differing++;
                    if (first == null) {
                        int p = i / 4;
                        first = "(" + p % image.width() + ", " + p / image.width() + ") channel " + c + ": "
                                + (image.rgba()[i + c] & 0xFF) + " against " + (expected[i + c] & 0xFF);
                    }
                }
            }
        }
        assertThat(differing).as("bytes that differ from the transcoder's RGBA32, first %s", first).isZero();
        if (entry.has("etc1")) {
            BufferedImage etc1 = ImageIO.read(textures.resolve(entry.get("etc1").asString()).toFile());
            for (int y = 0; y < image.height(); y++) {
                for (int x = 0; x < image.width(); x++) {
                    assertThat(image.argb(x, y) & 0xFFFFFF).isEqualTo(etc1.getRGB(x, y) & 0xFFFFFF);
                }
            }
        }
    }
}
