package io.posekit.asset.ktx2;

import io.posekit.asset.ImportException;

/**
 * The codebooks BasisLZ (ETC1S) slices index, decoded from a KTX2 file's supercompression global data: the endpoint
 * palette (a 5-bit-per-channel colour and a 3-bit ETC1 intensity table index each), the selector palette (sixteen
 * 2-bit selectors each), and the prefix codes and selector-history size the slices are coded with. Immutable after
 * construction.
 *
 * <p>Layout and coding as in the KTX 2.0 specification's BasisLZ global data and Basis Universal's ETC1S format.
 */
final class Etc1sCodebooks {

    /** Previous-colour thresholds that pick the colour-delta code (values up to 9, up to 21, above). */
    private static final int COLOR5_PAL0_PREV_HI = 9;
    private static final int COLOR5_PAL1_PREV_HI = 21;

    /** Per endpoint: red, green, blue (0..31) and intensity table (0..7), packed 4 bytes apart. */
    final byte[] endpoints;
    final int endpointCount;
    /** Per selector: 4 rows of one byte each, the selector of column x in bits 2x..2x+1. */
    final byte[] selectors;
    final int selectorCount;
    final HuffmanCode endpointPredCode;
    final HuffmanCode deltaEndpointCode;
    final HuffmanCode selectorCode;
    final HuffmanCode selectorHistoryRleCode;
    final int selectorHistorySize;

    /**
     * Decodes the three sections of the global data.
     *
     * @throws ImportException (invalid) when any is malformed
     */
    Etc1sCodebooks(byte[] file, int endpointCount, int endpointsOffset, int endpointsLength, int selectorCount,
            int selectorsOffset, int selectorsLength, int tablesOffset, int tablesLength, String where) {
        if (endpointCount < 1 || selectorCount < 1) {
            throw ImportException.invalid(where + ": BasisLZ declares " + endpointCount + " endpoints and "
                    + selectorCount + " selectors (at least one of each)");
        }
        this.endpointCount = endpointCount;
        this.selectorCount = selectorCount;
        this.endpoints = decodeEndpoints(new BitReader(file, endpointsOffset, endpointsLength,
                where + ": BasisLZ endpoints"), endpointCount, where + ": BasisLZ endpoints");
        this.selectors = decodeSelectors(new BitReader(file, selectorsOffset, selectorsLength,
                where + ": BasisLZ selectors"), selectorCount, where + ": BasisLZ selectors");
        String tw = where + ": BasisLZ tables";
        BitReader tables = new BitReader(file, tablesOffset, tablesLength, tw);
        endpointPredCode = HuffmanCode.read(tables, tw);
        deltaEndpointCode = HuffmanCode.read(tables, tw);
        selectorCode = HuffmanCode.read(tables, tw);
        selectorHistoryRleCode = HuffmanCode.read(tables, tw);
        selectorHistorySize = tables.bits(13);
    }

    private static byte[] decodeEndpoints(BitReader in, int count, String where) {
        HuffmanCode[] colorDelta = {HuffmanCode.read(in, where), HuffmanCode.read(in, where), HuffmanCode.read(in, where)};
        HuffmanCode intenDelta = HuffmanCode.read(in, where);
        boolean grayscale = in.bit() == 1;
        byte[] out = new byte[count * 4];
        int[] prev = {16, 16, 16};
        int prevInten = 0;
        for (int i = 0; i < count; i++) {
            int inten = (prevInten + intenDelta.decode(in)) & 7;
            prevInten = inten;
            int channels = grayscale ? 1 : 3;
            for (int c = 0; c < channels; c++) {
                int p = prev[c];
                HuffmanCode code = p <= COLOR5_PAL0_PREV_HI ? colorDelta[0]
                        : p <= COLOR5_PAL1_PREV_HI ? colorDelta[1] : colorDelta[2];
                int v = (p + code.decode(in)) & 31;
                prev[c] = v;
                out[i * 4 + c] = (byte) v;
            }
            if (grayscale) {
                out[i * 4 + 1] = out[i * 4];
                out[i * 4 + 2] = out[i * 4];
            }
            out[i * 4 + 3] = (byte) inten;
        }
        return out;
    }

    private static byte[] decodeSelectors(BitReader in, int count, String where) {
        if (in.bit() == 1) {
            throw ImportException.unsupported(where + " use a global selector codebook, which KTX2 does not allow");
        }
        if (in.bit() == 1) {
            throw ImportException.unsupported(where + " use a hybrid selector codebook, which KTX2 does not allow");
        }
        byte[] out = new byte[count * 4];
        if (in.bit() == 1) {
            for (int i = 0; i < count * 4; i++) {
                out[i] = (byte) in.bits(8);
            }
            return out;
        }
        HuffmanCode delta = HuffmanCode.read(in, where);
        for (int j = 0; j < 4; j++) {
            out[j] = (byte) in.bits(8);
        }
        for (int i = 1; i < count; i++) {
            for (int j = 0; j < 4; j++) {
                out[i * 4 + j] = (byte) (delta.decode(in) ^ out[(i - 1) * 4 + j]);
            }
        }
        return out;
    }
}
