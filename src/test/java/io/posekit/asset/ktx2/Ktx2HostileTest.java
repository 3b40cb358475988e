package io.posekit.asset.ktx2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Broken, lying and hostile KTX2 files fail with a precise {@link ImportException} (a 4xx), never another exception,
 * a hang or an allocation the file's size does not justify.
 */
class Ktx2HostileTest {

    private static final DecodeBudget BIG = new DecodeBudget(1L << 30);

    /** A KTX2 header (80 bytes) with one level entry and a 44-byte ETC1S DFD, BasisLZ, sized {@code w × h}. */
    static byte[] header(int w, int h, int scheme, int colorModel, int total) {
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0xAB, 'K', 'T', 'X', ' ', '2', '0', (byte) 0xBB, 0x0D, 0x0A, 0x1A, 0x0A});
        b.putInt(0).putInt(1).putInt(w).putInt(h).putInt(0).putInt(0).putInt(1).putInt(1).putInt(scheme);
        b.putInt(104).putInt(44).putInt(0).putInt(0).putLong(148).putLong(0); // dfd, kvd, sgd
        b.putLong(148).putLong(total - 148).putLong(0); // level 0
        b.putInt(44).putInt(0).putInt(2 | 40 << 16).put((byte) colorModel);
        return b.array();
    }

    private static ImportException failure(byte[] file) {
        Throwable t = catchThrowable(() -> Ktx2Decoder.decode(file, "t.ktx2", BIG));
        assertThat(t).isInstanceOf(ImportException.class);
        return (ImportException) t;
    }

    @Test
    void notKtx2IsInvalid() {
        assertThat(failure(new byte[] {(byte) 0x89, 'P', 'N', 'G'}).getMessage())
                .isEqualTo("t.ktx2 is not a KTX2 file (no KTX 2.0 identifier)");
        assertThat(Ktx2Decoder.isKtx2(header(4, 4, 1, 163, 200))).isTrue();
        assertThat(Ktx2Decoder.isKtx2(new byte[11])).isFalse();
    }

    @Test
    void truncatedHeaderIsInvalid() {
        byte[] h = header(4, 4, 1, 163, 200);
        ImportException e = failure(java.util.Arrays.copyOf(h, 50));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).isEqualTo("t.ktx2: KTX2 header truncated at 50 bytes");
    }

    @Test
    void oversizedImageIsRefusedBeforeAnyPixelIsAllocated() {
        assertThat(failure(header(9000, 4, 1, 163, 200)).getMessage())
                .isEqualTo("t.ktx2: KTX2 image is 9000×4 pixels, outside 1..8192 either way");
        assertThat(failure(header(0, 4, 1, 163, 200)).kind()).isEqualTo(ImportException.Kind.INVALID);
        // 8192² × 4 bytes against a 1 MB budget: 413 before the pixels exist
        byte[] big = header(8192, 8192, 1, 163, 200);
        Throwable t = catchThrowable(() -> Ktx2Decoder.decode(big, "t.ktx2", new DecodeBudget(1 << 20)));
        assertThat(t).isInstanceOf(ImportException.class);
        assertThat(((ImportException) t).kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(t.getMessage()).startsWith("t.ktx2 decoded KTX2 pixels needs 268435456 bytes");
    }

    @Test
    void offsetsPastTheFileAreInvalid() {
        byte[] h = header(4, 4, 1, 163, 200);
        ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN).putLong(88, 1000); // level 0 length
        assertThat(failure(h).getMessage())
                .isEqualTo("t.ktx2: KTX2 level 0 at 148 of 1000 bytes runs past the file's 200 bytes");
        byte[] d = header(4, 4, 1, 163, 200);
        ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).putInt(48, 190);
        assertThat(failure(d).getMessage())
                .isEqualTo("t.ktx2: KTX2 data format descriptor at 190 of 44 bytes runs past the file's 200 bytes");
        byte[] n = header(4, 4, 1, 163, 200);
        ByteBuffer.wrap(n).order(ByteOrder.LITTLE_ENDIAN).putLong(80, -1L);
        assertThat(failure(n).getMessage()).isEqualTo("t.ktx2: a KTX2 64-bit offset or length out of range");
        byte[] levels = header(4, 4, 1, 163, 200);
        ByteBuffer.wrap(levels).order(ByteOrder.LITTLE_ENDIAN).putInt(40, 30);
        assertThat(failure(levels).getMessage())
                .isEqualTo("t.ktx2: KTX2 level index of 30 levels runs past the file's 200 bytes");
    }

    @Test
    void basisLzGlobalDataTooShortForItsImagesIsInvalid() {
        byte[] h = header(4, 4, 1, 163, 200);
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(64, 148).putLong(72, 30).putLong(80, 178).putLong(88, 22);
        b.putShort(148, (short) 1).putShort(150, (short) 1).putInt(152, 100);
        assertThat(failure(h).getMessage()).isEqualTo("t.ktx2: BasisLZ global data needs 140 bytes for 1 images"
                + " and its codebooks, but has 30");
    }

    @Test
    void otherFormatsAreUnsupported() {
        ImportException zlib = failure(header(4, 4, 3, 166, 200));
        assertThat(zlib.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
        assertThat(zlib.getMessage()).isEqualTo("t.ktx2: KTX2 supercompression scheme 3 for colour model 166");
        byte[] vk = header(4, 4, 0, 163, 200);
        ByteBuffer.wrap(vk).order(ByteOrder.LITTLE_ENDIAN).putInt(12, 37); // VK_FORMAT_R8G8B8A8_UNORM
        assertThat(failure(vk).getMessage())
                .isEqualTo("t.ktx2: KTX2 Vulkan format 37 (posekit transcodes Basis Universal textures, format 0)");
    }

    @Test
    void uastcLevelsShorterThanTheirBlocksAreInvalid() {
        // 8×8 pixels are 4 blocks, 64 bytes; the level holds 52
        assertThat(failure(header(8, 8, 0, 166, 200)).getMessage())
                .isEqualTo("t.ktx2: KTX2 level 0 has 52 bytes, but a 8×8 UASTC image needs 64");
        byte[] zstd = header(8, 8, 2, 166, 200);
        ByteBuffer.wrap(zstd).order(ByteOrder.LITTLE_ENDIAN).putLong(96, 64);
        assertThat(failure(zstd).getMessage()).startsWith("t.ktx2: KTX2 level 0 is not valid Zstandard data (");
        ByteBuffer.wrap(zstd).order(ByteOrder.LITTLE_ENDIAN).putLong(96, 1L << 40);
        assertThat(failure(zstd).getMessage())
                .isEqualTo("t.ktx2: KTX2 level 0 inflates to 1099511627776 bytes, but a 8×8 UASTC image needs 64");
    }

    @Test
    void aUastcBlockOfTheReservedModeIsInvalid() {
        byte[] file = header(4, 4, 0, 166, 164);
        file[148] = 0x45; // mode prefix 1000101
        assertThat(failure(file).getMessage())
                .isEqualTo("t.ktx2: UASTC level 0: UASTC block (0, 0) uses the reserved mode");
        file[148] = 0x48; // prefix 1001000 is mode 11 (RGBA, two planes); with every other bit 0, all endpoints are 0
        assertThat(Ktx2Decoder.decode(file, "t.ktx2", BIG).rgba()).containsOnly(0);
    }

    @Test
    void aUastcSolidBlockIsItsColour() {
        byte[] file = header(3, 2, 0, 166, 164);
        // mode 8: prefix 10111 (5 bits), then red, green, blue, alpha (8 bits each)
        long bits = 0x17 | 200L << 5 | 100L << 13 | 50L << 21 | 128L << 29;
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putLong(148, bits);
        RgbaImage image = Ktx2Decoder.decode(file, "t.ktx2", BIG);
        assertThat(image.width()).isEqualTo(3);
        for (int y = 0; y < 2; y++) {
            for (int x = 0; x < 3; x++) {
                assertThat(image.argb(x, y)).isEqualTo(0x80C86432);
            }
        }
    }

    /** Every truncation and many random corruptions of real ETC1S and UASTC files: an image or an ImportException. */
    @Test
    void truncatedAndCorruptedRealFilesFailCleanly() throws IOException {
        for (String name : new String[] {"noise-etc1s-mips.ktx2", "noise-uastc-zstd.ktx2"}) {
            Path file = Ktx2GoldenTest.dir().resolve("textures/" + name);
            assumeTrue(Files.isRegularFile(file), file + " is absent (run tools/ktx2-golden/run.sh)");
            truncatedAndCorrupted(Files.readAllBytes(file));
        }
    }

    private static void truncatedAndCorrupted(byte[] good) {
        assertThat(Ktx2Decoder.decode(good, "t.ktx2", BIG).width()).isEqualTo(96);
        for (int len = 0; len < good.length; len++) {
            byte[] cut = java.util.Arrays.copyOf(good, len);
            assertThatThrownBy(() -> Ktx2Decoder.decode(cut, "t.ktx2", BIG)).isInstanceOf(ImportException.class);
        }
        Random random = new Random(40);
        int decoded = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] bad = good.clone();
            for (int k = 0; k < 1 + random.nextInt(4); k++) {
                bad[random.nextInt(bad.length)] ^= (byte) (1 << random.nextInt(8));
            }
            try {
                RgbaImage image = Ktx2Decoder.decode(bad, "t.ktx2", BIG);
                assertThat(image.rgba()).hasSize(image.width() * image.height() * 4);
                decoded++;
            } catch (ImportException e) {
                assertThat(e.getMessage()).startsWith("t.ktx2");
            }
        }
        assertThat(decoded).isBetween(1, 2999);
    }
}
