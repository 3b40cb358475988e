package io.posekit.asset.ktx2;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;

/**
 * Decodes the base level of a KTX 2.0 texture (the container of glTF's {@code KHR_texture_basisu}) to RGBA8: reads
 * the header, the level index and the data format descriptor, skips every mipmap but the largest, and transcodes
 * Basis Universal ETC1S (BasisLZ supercompression) and UASTC 4×4 (no supercompression or Zstandard, inflated by
 * Airlift's pure-Java decoder) to pixels; of an array or cube map, layer 0 face 0. Every offset and length is checked
 * against the file before it is used, and the decoded pixels (and a Zstandard level's inflated size) are charged to the
 * import's {@link DecodeBudget} before they are allocated.
 *
 * <p>Not decoded (an {@link ImportException.Kind#UNSUPPORTED} exception naming it): ETC1S video P-frames, ZLIB
 * supercompression, UASTC HDR, and any other Vulkan format. Stateless; thread-safe.
 */
public final class Ktx2Decoder {

    /** Largest width or height decoded (the renderer's limit). */
    public static final int MAX_SIZE = 8192;

    private static final byte[] IDENTIFIER = {
        (byte) 0xAB, 'K', 'T', 'X', ' ', '2', '0', (byte) 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
    private static final int HEADER_BYTES = 80;
    private static final int LEVEL_BYTES = 24;
    private static final int MAX_LEVELS = 32;
    private static final int MAX_LAYERS = 2048;
    private static final int SCHEME_NONE = 0;
    private static final int SCHEME_BASISLZ = 1;
    private static final int SCHEME_ZSTD = 2;
    private static final int SCHEME_ZLIB = 3;
    /** Data format descriptor colour models. */
    private static final int MODEL_ETC1S = 163;
    private static final int MODEL_UASTC = 166;
    private static final int BASISLZ_HEADER_BYTES = 20;
    private static final int IMAGE_DESC_BYTES = 20;
    private static final int FLAG_P_FRAME = 2;

    private Ktx2Decoder() {
    }

    /** Whether {@code bytes} start with the KTX 2.0 file identifier. */
    public static boolean isKtx2(byte[] bytes) {
        if (bytes.length < IDENTIFIER.length) {
            return false;
        }
        for (int i = 0; i < IDENTIFIER.length; i++) {
            if (bytes[i] != IDENTIFIER[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The base level of a KTX2 file as RGBA8.
     *
     * @param file the KTX2 file's bytes (not modified)
     * @param where how errors name the file, e.g. {@code image 2}
     * @throws ImportException (invalid) when the file is not KTX2, is truncated or corrupt, or an offset or length
     *     points outside it; (unsupported) for a format this decoder does not transcode; (too large) when the pixels
     *     would take the import past its decode budget
     */
    public static RgbaImage decode(byte[] file, String where, DecodeBudget budget) {
        if (!isKtx2(file)) {
            throw ImportException.invalid(where + " is not a KTX2 file (no KTX 2.0 identifier)");
        }
        if (file.length < HEADER_BYTES) {
            throw ImportException.invalid(where + ": KTX2 header truncated at " + file.length + " bytes");
        }
        int vkFormat = u32(file, 12);
        long width = u32l(file, 20);
        long height = u32l(file, 24);
        long depth = u32l(file, 28);
        long layers = u32l(file, 32);
        long faces = u32l(file, 36);
        long levelCount = u32l(file, 40);
        int scheme = u32(file, 44);
        if (width < 1 || height < 1 || width > MAX_SIZE || height > MAX_SIZE) {
            throw ImportException.invalid(where + ": KTX2 image is " + width + "×" + height + " pixels, outside 1.."
                    + MAX_SIZE + " either way");
        }
        if (depth > 1) {
            throw ImportException.unsupported(where + ": a 3D KTX2 texture (depth " + depth + ") is not a glTF image");
        }
        if (faces != 1 && faces != 6) {
            throw ImportException.invalid(where + ": KTX2 faceCount " + faces + " (1 or 6)");
        }
        if (layers > MAX_LAYERS || levelCount > MAX_LEVELS) {
            throw ImportException.invalid(where + ": KTX2 declares " + layers + " layers and " + levelCount
                    + " levels (at most " + MAX_LAYERS + " and " + MAX_LEVELS + ")");
        }
        int levels = (int) Math.max(1, levelCount);
        long dfdOffset = u32l(file, 48);
        long dfdLength = u32l(file, 52);
        long sgdOffset = u64(file, 64, where);
        long sgdLength = u64(file, 72, where);
        if (HEADER_BYTES + (long) levels * LEVEL_BYTES > file.length) {
            throw ImportException.invalid(where + ": KTX2 level index of " + levels + " levels runs past the file's "
                    + file.length + " bytes");
        }
        long levelOffset = u64(file, HEADER_BYTES, where);
        long levelLength = u64(file, HEADER_BYTES + 8, where);
        within(file, levelOffset, levelLength, "level 0", where);
        within(file, dfdOffset, dfdLength, "data format descriptor", where);
        within(file, sgdOffset, sgdLength, "supercompression global data", where);
        if (dfdLength < 16) {
            throw ImportException.invalid(where + ": KTX2 data format descriptor of " + dfdLength + " bytes");
        }
        int colorModel = file[(int) dfdOffset + 12] & 0xFF;
        if (vkFormat != 0) {
            throw ImportException.unsupported(where + ": KTX2 Vulkan format " + vkFormat
                    + " (posekit transcodes Basis Universal textures, format 0)");
        }
        int w = (int) width;
        int h = (int) height;
        if (colorModel == MODEL_UASTC && (scheme == SCHEME_NONE || scheme == SCHEME_ZSTD)) {
            budget.charge((long) w * h, 4, where + " decoded KTX2 pixels");
            return uastc(file, (int) levelOffset, (int) levelLength, u64(file, HEADER_BYTES + 16, where),
                    scheme == SCHEME_ZSTD, w, h, uastcAlpha(file, (int) dfdOffset, (int) dfdLength), budget, where);
        }
        if (scheme == SCHEME_ZSTD || scheme == SCHEME_ZLIB || colorModel == MODEL_UASTC) {
            throw ImportException.unsupported(where + ": KTX2 supercompression scheme " + scheme + " for colour model "
                    + colorModel);
        }
        if (scheme != SCHEME_BASISLZ || colorModel != MODEL_ETC1S) {
            throw ImportException.unsupported(where + ": KTX2 supercompression scheme " + scheme + " with colour model "
                    + colorModel + " (posekit transcodes ETC1S with BasisLZ, scheme 1 model 163)");
        }
        budget.charge((long) w * h, 4, where + " decoded KTX2 pixels");
        return etc1s(file, (int) sgdOffset, (int) sgdLength, (int) levelOffset, (int) levelLength, w, h,
                levels * Math.max(1L, layers) * faces, budget, where);
    }

    private static RgbaImage etc1s(byte[] file, int sgd, int sgdLength, int level, int levelLength, int w, int h,
            long imageCount, DecodeBudget budget, String where) {
        if (sgdLength < BASISLZ_HEADER_BYTES) {
            throw ImportException.invalid(where + ": BasisLZ global data of " + sgdLength + " bytes");
        }
        int endpointCount = u16(file, sgd);
        int selectorCount = u16(file, sgd + 2);
        long endpointsLength = u32l(file, sgd + 4);
        long selectorsLength = u32l(file, sgd + 8);
        long tablesLength = u32l(file, sgd + 12);
        long extendedLength = u32l(file, sgd + 16);
        long descs = BASISLZ_HEADER_BYTES + imageCount * IMAGE_DESC_BYTES;
        long needed = descs + endpointsLength + selectorsLength + tablesLength + extendedLength;
        if (needed > sgdLength) {
            throw ImportException.invalid(where + ": BasisLZ global data needs " + needed + " bytes for " + imageCount
                    + " images and its codebooks, but has " + sgdLength);
        }
        int desc = sgd + BASISLZ_HEADER_BYTES; // image 0: level 0, layer 0, face 0
        int flags = u32(file, desc);
        long rgbOffset = u32l(file, desc + 4);
        long rgbLength = u32l(file, desc + 8);
        long alphaOffset = u32l(file, desc + 12);
        long alphaLength = u32l(file, desc + 16);
        if ((flags & FLAG_P_FRAME) != 0) {
            throw ImportException.unsupported(where + ": an ETC1S video P-frame");
        }
        if (rgbOffset + rgbLength > levelLength || alphaOffset + alphaLength > levelLength) {
            throw ImportException.invalid(where + ": a BasisLZ slice runs past level 0's " + levelLength + " bytes");
        }
        int endpoints = sgd + (int) descs;
        int selectors = endpoints + (int) endpointsLength;
        int tables = selectors + (int) selectorsLength;
        budget.charge(endpointCount + selectorCount, 8, where + " BasisLZ codebooks");
        Etc1sCodebooks books = new Etc1sCodebooks(file, endpointCount, endpoints, (int) endpointsLength, selectorCount,
                selectors, (int) selectorsLength, tables, (int) tablesLength, where);
        byte[] rgba = new byte[w * h * 4];
        Etc1sSlice.decode(books, file, level + (int) rgbOffset, (int) rgbLength, w, h, rgba, false, budget,
                where + ": ETC1S colour slice");
        boolean alpha = alphaLength > 0;
        if (alpha) {
            Etc1sSlice.decode(books, file, level + (int) alphaOffset, (int) alphaLength, w, h, rgba, true, budget,
                    where + ": ETC1S alpha slice");
        }
        return new RgbaImage(w, h, rgba, alpha);
    }

    private static RgbaImage uastc(byte[] file, int level, int levelLength, long uncompressedLength, boolean zstd,
            int w, int h, boolean alpha, DecodeBudget budget, String where) {
        long imageBytes = (long) ((w + 3) / 4) * ((h + 3) / 4) * UastcBlocks.BLOCK_BYTES;
        byte[] blocks = file;
        int offset = level;
        if (zstd) {
            if (uncompressedLength < imageBytes || uncompressedLength > Integer.MAX_VALUE - 16) {
                throw ImportException.invalid(where + ": KTX2 level 0 inflates to " + uncompressedLength
                        + " bytes, but a " + w + "×" + h + " UASTC image needs " + imageBytes);
            }
            budget.charge(uncompressedLength, 1, where + " Zstandard-inflated KTX2 level 0");
            blocks = new byte[(int) uncompressedLength];
            offset = 0;
            int n;
            try {
                n = new ZstdJavaDecompressor().decompress(file, level, levelLength, blocks, 0, blocks.length);
            } catch (RuntimeException e) {
                throw ImportException.invalid(where + ": KTX2 level 0 is not valid Zstandard data ("
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
            }
            if (n < imageBytes) {
                throw ImportException.invalid(where + ": KTX2 level 0 inflates to " + n + " bytes, but a " + w + "×" + h
                        + " UASTC image needs " + imageBytes);
            }
        } else if (levelLength < imageBytes) {
            throw ImportException.invalid(where + ": KTX2 level 0 has " + levelLength + " bytes, but a " + w + "×" + h
                    + " UASTC image needs " + imageBytes);
        }
        byte[] rgba = new byte[w * h * 4];
        UastcBlocks.decode(blocks, offset, w, h, rgba, budget, where + ": UASTC level 0");
        return new RgbaImage(w, h, rgba, alpha);
    }

    /** Whether a UASTC texture's data format descriptor says it carries alpha (channel RGBA or RRRG). */
    private static boolean uastcAlpha(byte[] file, int dfd, int dfdLength) {
        if (dfdLength < 32) {
            return false;
        }
        int channel = file[dfd + 28 + 3] & 0x0F;
        return channel == 3 || channel == 5;
    }

    private static void within(byte[] file, long offset, long length, String what, String where) {
        if (offset < 0 || length < 0 || offset + length > file.length) {
            throw ImportException.invalid(where + ": KTX2 " + what + " at " + offset + " of " + length
                    + " bytes runs past the file's " + file.length + " bytes");
        }
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    private static int u32(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
    }

    private static long u32l(byte[] b, int at) {
        return u32(b, at) & 0xFFFF_FFFFL;
    }

    private static long u64(byte[] b, int at, String where) {
        long lo = u32l(b, at);
        long hi = u32l(b, at + 4);
        if (hi >= 1L << 31) {
            throw ImportException.invalid(where + ": a KTX2 64-bit offset or length out of range");
        }
        return hi << 32 | lo;
    }
}
