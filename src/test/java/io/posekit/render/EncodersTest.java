package io.posekit.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.metadata.IIOMetadataNode;
import javax.imageio.stream.ImageInputStream;
import org.junit.jupiter.api.Test;

/** {@link PngEncoder} and {@link GifEncoder} read back with {@code javax.imageio}'s independent decoders. */
class EncodersTest {

    @Test
    void aPngWithAlphaDecodesToTheSamePixels() throws IOException {
        RgbaImage image = pattern(37, 23, true);
        BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(PngEncoder.encode(image)));
        assertThat(decoded.getColorModel().hasAlpha()).isTrue();
        for (int y = 0; y < 23; y++) {
            for (int x = 0; x < 37; x++) {
                assertThat(decoded.getRGB(x, y)).as("%d,%d", x, y).isEqualTo(image.argb(x, y));
            }
        }
    }

    @Test
    void anOpaquePngIsWrittenAsRgb() throws IOException {
        RgbaImage image = pattern(16, 9, false);
        byte[] png = PngEncoder.encode(image, 9);
        assertThat(png[25]).as("colour type").isEqualTo((byte) 2);
        BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(decoded.getColorModel().hasAlpha()).isFalse();
        for (int y = 0; y < 9; y++) {
            for (int x = 0; x < 16; x++) {
                assertThat(decoded.getRGB(x, y)).isEqualTo(image.argb(x, y));
            }
        }
    }

    @Test
    void aGifOfFewColoursKeepsThemExactlyWithTransparencyDelaysAndLooping() throws IOException {
        // 3 frames, 30 colours in all, each alone in its histogram bin (multiples of 8), so median cut gives each its
        // own entry; large enough for the LZW table to fill and be cleared
        List<RgbaImage> frames = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            RgbaImage frame = RgbaImage.blank(150, 120);
            for (int y = 0; y < 120; y++) {
                for (int x = 0; x < 150; x++) {
                    int i = 4 * (y * 150 + x);
                    if ((x + y + f) % 7 == 0) {
                        continue; // transparent
                    }
                    int k = (x * 7 + y * 13 + f * 5 + x * y) % 30;
                    frame.rgba()[i] = (byte) (8 * k);
                    frame.rgba()[i + 1] = (byte) (248 - 8 * k);
                    frame.rgba()[i + 2] = (byte) (8 * (k * 5 % 32));
                    frame.rgba()[i + 3] = (byte) 255;
                }
            }
            frames.add(frame);
        }
        byte[] gif = GifEncoder.encode(frames, new int[] {7, 6, 7});
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(gif))) {
            ImageReader reader = ImageIO.getImageReadersByFormatName("gif").next();
            reader.setInput(in);
            assertThat(reader.getNumImages(true)).isEqualTo(3);
            for (int f = 0; f < 3; f++) {
                BufferedImage decoded = reader.read(f);
                for (int y = 0; y < 120; y++) {
                    for (int x = 0; x < 150; x++) {
                        int expected = frames.get(f).argb(x, y);
                        assertThat(decoded.getRGB(x, y) >>> 24 == 0 ? 0 : decoded.getRGB(x, y))
                                .as("frame %d pixel %d,%d", f, x, y).isEqualTo(expected);
                    }
                }
                IIOMetadataNode root = (IIOMetadataNode) reader.getImageMetadata(f).getAsTree("javax_imageio_gif_image_1.0");
                IIOMetadataNode control = (IIOMetadataNode) root.getElementsByTagName("GraphicControlExtension").item(0);
                assertThat(control.getAttribute("delayTime")).isEqualTo(String.valueOf(new int[] {7, 6, 7}[f]));
                assertThat(control.getAttribute("transparentColorFlag")).isEqualTo("TRUE");
                assertThat(control.getAttribute("disposalMethod")).isEqualTo("restoreToBackgroundColor");
            }
            IIOMetadataNode stream = (IIOMetadataNode) reader.getImageMetadata(0).getAsTree("javax_imageio_gif_image_1.0");
            assertThat(stream).isNotNull();
        }
        assertThat(new String(gif, 0, 6, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("GIF89a");
        assertThat(new String(gif, 13 + 768 + 3, 11, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("NETSCAPE2.0");
    }

    @Test
    void aGifOfManyColoursMapsEachPixelToANearbyPaletteColour() throws IOException {
        RgbaImage frame = pattern(64, 64, false);
        byte[] gif = GifEncoder.encode(List.of(frame), new int[] {10});
        BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(gif));
        int worst = 0;
        for (int y = 0; y < 64; y++) {
            for (int x = 0; x < 64; x++) {
                int a = frame.argb(x, y), b = decoded.getRGB(x, y);
                for (int s = 0; s < 24; s += 8) {
                    worst = Math.max(worst, Math.abs((a >> s & 0xFF) - (b >> s & 0xFF)));
                }
            }
        }
        // 4096 colours into 256: each channel within 24 codes
        assertThat(worst).isLessThanOrEqualTo(24);
    }

    /** A picture of many colours; with {@code alpha}, alpha varies too. */
    private static RgbaImage pattern(int w, int h, boolean alpha) {
        RgbaImage image = RgbaImage.blank(w, h);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = 4 * (y * w + x);
                image.rgba()[i] = (byte) (x * 4);
                image.rgba()[i + 1] = (byte) (y * 4);
                image.rgba()[i + 2] = (byte) ((x ^ y) * 4);
                image.rgba()[i + 3] = (byte) (alpha ? (x * y) % 256 : 255);
            }
        }
        return image;
    }
}
