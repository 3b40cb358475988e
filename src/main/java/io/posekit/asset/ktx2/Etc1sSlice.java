package io.posekit.asset.ktx2;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;

/**
 * Decodes one ETC1S slice (BasisLZ-coded 4×4 blocks) into pixels: each block's endpoint is predicted from its left,
 * upper or upper-left neighbour or coded as a delta, its selector taken from the palette, a move-to-front history or
 * a run; the block's four colours are the endpoint's colour (5 bits per channel widened to 8) plus the ETC1
 * intensity table's offsets, clamped to 0..255.
 */
final class Etc1sSlice {

    /** ETC1 intensity modifiers, by table (0..7) and selector (0..3). */
    private static final int[][] INTEN = {
        {-8, -2, 2, 8}, {-17, -5, 5, 17}, {-29, -9, 9, 29}, {-42, -13, 13, 42},
        {-60, -18, 18, 60}, {-80, -24, 24, 80}, {-106, -33, 33, 106}, {-183, -47, 47, 183}};

    private static final int ENDPOINT_PRED_REPEAT_LAST = 256;
    private static final int ENDPOINT_PRED_MIN_REPEAT = 3;
    private static final int ENDPOINT_PRED_COUNT_VLC_BITS = 4;
    private static final int SELECTOR_HISTORY_RLE_THRESH = 3;
    private static final int SELECTOR_HISTORY_RLE_TOTAL = 64;
    private static final int SELECTOR_HISTORY_RLE_VLC_BITS = 7;

    private Etc1sSlice() {
    }

    /**
     * Decodes the slice at {@code offset, length} of {@code file} and writes its pixels into {@code rgba} (4 bytes a
     * pixel, {@code width × height}, rows top first): all four channels from the colour when {@code alpha} is false;
     * only the alpha byte, from the colour's green, when true. Blocks past the image's edge are decoded and cropped.
     *
     * @throws ImportException (invalid) when the slice is malformed, truncated or indexes past a codebook
     */
    static void decode(Etc1sCodebooks books, byte[] file, int offset, int length, int width, int height,
            byte[] rgba, boolean alpha, DecodeBudget budget, String where) {
        int blocksX = (width + 3) >>> 2;
        int blocksY = (height + 3) >>> 2;
        long totalBlocks = (long) blocksX * blocksY;
        BitReader in = new BitReader(file, offset, length, where);
        if (books.endpointPredCode.isEmpty() || books.selectorCode.isEmpty()) {
            throw ImportException.invalid(where + ": BasisLZ tables lack the endpoint or selector code");
        }
        int historySize = books.selectorHistorySize;
        int[] history = new int[historySize];
        int rover = historySize / 2; // the approximate move-to-front list adds from its middle
        int firstHistorySymbol = books.selectorCount;
        int rleSymbol = firstHistorySymbol + historySize;
        int[] prevRowEndpoints = new int[blocksX];
        int[] rowEndpoints = new int[blocksX];
        int[] groupPredBits = new int[blocksX];
        int rleCount = 0;
        int predRepeat = 0;
        int prevPredSym = 0;
        int prevEndpoint = 0;
        int predBits = 0;
        int[] colours = new int[12];
        for (int by = 0; by < blocksY; by++) {
            budget.checkTime();
            for (int bx = 0; bx < blocksX; bx++) {
                if ((bx & 1) == 0) {
                    if ((by & 1) == 0) {
                        if (predRepeat > 0) {
                            predRepeat--;
                            predBits = prevPredSym;
                        } else {
                            predBits = books.endpointPredCode.decode(in);
                            if (predBits == ENDPOINT_PRED_REPEAT_LAST) {
                                predRepeat = in.vlc(ENDPOINT_PRED_COUNT_VLC_BITS) + ENDPOINT_PRED_MIN_REPEAT - 1;
                                predBits = prevPredSym;
                            } else if (predBits > 255) {
                                throw ImportException.invalid(where + ": endpoint prediction symbol " + predBits);
                            } else {
                                prevPredSym = predBits;
                            }
                        }
                        groupPredBits[bx] = predBits >>> 4;
                    } else {
                        predBits = groupPredBits[bx];
                    }
                }
                int pred = predBits & 3;
                predBits >>>= 2;
                int endpoint;
                switch (pred) {
                    case 0 -> {
                        if (bx == 0) {
                            throw ImportException.invalid(where + ": block (0, " + by + ") predicts its endpoint from the left");
                        }
                        endpoint = prevEndpoint;
                    }
                    case 1 -> {
                        if (by == 0) {
                            throw ImportException.invalid(where + ": block (" + bx + ", 0) predicts its endpoint from above");
                        }
                        endpoint = prevRowEndpoints[bx];
                    }
                    case 2 -> {
                        if (bx == 0 || by == 0) {
                            throw ImportException.invalid(where + ": block (" + bx + ", " + by
                                    + ") predicts its endpoint from the upper left");
                        }
                        endpoint = prevRowEndpoints[bx - 1];
                    }
                    default -> {
                        int delta = books.deltaEndpointCode.decode(in);
                        endpoint = delta + prevEndpoint;
                        if (endpoint >= books.endpointCount) {
                            endpoint -= books.endpointCount;
                        }
                        if (endpoint < 0 || endpoint >= books.endpointCount) {
                            throw ImportException.invalid(where + ": endpoint " + endpoint + " past the "
                                    + books.endpointCount + " of the codebook");
                        }
                    }
                }
                prevEndpoint = endpoint;
                rowEndpoints[bx] = endpoint;

                int selector;
                if (rleCount > 0) {
                    rleCount--;
                    selector = history.length == 0 ? 0 : history[0];
                } else {
                    int sym = books.selectorCode.decode(in);
                    if (sym == rleSymbol) {
                        int run = books.selectorHistoryRleCode.decode(in);
                        rleCount = run == SELECTOR_HISTORY_RLE_TOTAL - 1
                                ? in.vlc(SELECTOR_HISTORY_RLE_VLC_BITS) + SELECTOR_HISTORY_RLE_THRESH
                                : run + SELECTOR_HISTORY_RLE_THRESH;
                        if (rleCount > totalBlocks || historySize == 0) {
                            throw ImportException.invalid(where + ": a selector run of " + rleCount + " blocks");
                        }
                        selector = history[0];
                        rleCount--;
                    } else if (sym >= firstHistorySymbol) {
                        int h = sym - firstHistorySymbol;
                        if (h >= historySize) {
                            throw ImportException.invalid(where + ": selector history entry " + h + " of " + historySize);
                        }
                        selector = history[h];
                        if (h != 0) {
                            int half = h >>> 1;
                            history[h] = history[half];
                            history[half] = selector;
                        }
                    } else {
                        selector = sym;
                        if (historySize > 0) {
                            history[rover++] = selector;
                            if (rover == historySize) {
                                rover = historySize / 2;
                            }
                        }
                    }
                }
                if (selector >= books.selectorCount) {
                    throw ImportException.invalid(where + ": selector " + selector + " past the "
                            + books.selectorCount + " of the codebook");
                }
                writeBlock(books, endpoint, selector, bx, by, width, height, rgba, alpha, colours);
            }
            int[] t = prevRowEndpoints;
            prevRowEndpoints = rowEndpoints;
            rowEndpoints = t;
        }
    }

    private static void writeBlock(Etc1sCodebooks books, int endpoint, int selector, int bx, int by, int width,
            int height, byte[] rgba, boolean alpha, int[] colours) {
        byte[] e = books.endpoints;
        int[] inten = INTEN[e[endpoint * 4 + 3]];
        for (int c = 0; c < 3; c++) {
            int c5 = e[endpoint * 4 + c];
            int base = (c5 << 3) | (c5 >>> 2);
            for (int s = 0; s < 4; s++) {
                colours[s * 3 + c] = Math.clamp(base + inten[s], 0, 255);
            }
        }
        byte[] sel = books.selectors;
        int x0 = bx * 4;
        int y0 = by * 4;
        for (int y = 0; y < 4 && y0 + y < height; y++) {
            int row = sel[selector * 4 + y] & 0xFF;
            for (int x = 0; x < 4 && x0 + x < width; x++) {
                int s = (row >>> (2 * x)) & 3;
                int p = ((y0 + y) * width + x0 + x) * 4;
                if (alpha) {
                    rgba[p + 3] = (byte) colours[s * 3 + 1];
                } else {
                    rgba[p] = (byte) colours[s * 3];
                    rgba[p + 1] = (byte) colours[s * 3 + 1];
                    rgba[p + 2] = (byte) colours[s * 3 + 2];
                    rgba[p + 3] = (byte) 255;
                }
            }
        }
    }
}
