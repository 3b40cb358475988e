package io.posekit.asset.x;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses the MSZIP data of a {@code tzip}/{@code bzip} file. After the 16-byte header: a little-endian
 * uint32 giving the size of the whole decompressed file <em>including</em> that header, then blocks of
 * {@code [uint16 uncompressed size][uint16 compressed size]['C' 'K'][raw deflate data]}, where the compressed
 * size counts the {@code CK} signature and the deflate data. Each block's deflate stream is complete on its own
 * but may refer back into the previous block's output (MSZIP keeps the 32 KiB history between blocks), so the
 * previous block's output is set as the dictionary of the next.
 *
 * <p>Output is bounded before anything is allocated: the declared size must fit {@link ImportLimits#maxZipBytes()},
 * stay within {@link ImportLimits#maxZipRatio()} times the compressed size (a zip bomb otherwise), and is charged
 * to the import's {@link DecodeBudget}. Every block must inflate to exactly its declared size and the blocks
 * together to exactly the header's size; anything else is an invalid file.
 */
final class Mszip {

    private Mszip() {
    }

    /**
     * The decompressed data after the header.
     *
     * @param file the whole file
     * @param start where the size field follows the 16-byte header
     * @param name the file name, for messages
     * @throws ImportException (invalid) for malformed or lying blocks, (too large) past a limit
     */
    static byte[] inflate(byte[] file, int start, String name, ImportLimits limits, DecodeBudget budget) {
        String where = name + " (MSZIP-compressed)";
        if (file.length - start < 4) {
            throw ImportException.invalid(where + ": the decompressed size field after the header is missing (the file"
                    + " ends at byte " + file.length + ")");
        }
        long total = u32(file, start);
        if (total < XHeader.LENGTH) {
            throw ImportException.invalid(where + ": the header says the decompressed file has " + total
                    + " bytes, fewer than its own 16-byte header");
        }
        long size = total - XHeader.LENGTH;
        long compressed = file.length - (start + 4L);
        if (size > limits.maxZipBytes()) {
            throw ImportException.tooLarge(where + " declares " + size + " decompressed bytes; the limit is "
                    + limits.maxZipBytes() + " (" + ImportLimits.ZIP_BYTES + ")");
        }
        if (size > Math.max(1, compressed) * (long) limits.maxZipRatio()) {
            throw ImportException.tooLarge(where + " declares " + size + " decompressed bytes from " + compressed
                    + " compressed bytes, a ratio above the limit of " + limits.maxZipRatio() + " (" + ImportLimits.ZIP_RATIO
                    + "; a zip bomb?)");
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw ImportException.tooLarge(where + " declares " + size + " decompressed bytes, more than one array holds");
        }
        budget.charge(size, 1, where + " decompressed data");
        byte[] out = new byte[(int) size];
        int written = 0;
        int previousStart = 0;
        int previousLength = 0;
        int pos = start + 4;
        int block = 0;
        Inflater inflater = new Inflater(true);
        try {
            while (pos < file.length) {
                budget.checkTime();
                String b = where + " block " + block + " at byte " + pos;
                if (file.length - pos < 6) {
                    throw ImportException.invalid(b + " is cut short: its 6-byte block header needs " + 6 + " bytes, "
                            + (file.length - pos) + " are left");
                }
                int blockSize = u16(file, pos);
                int packed = u16(file, pos + 2);
                if (packed < 2) {
                    throw ImportException.invalid(b + ": compressed size " + packed + " cannot even hold the 'CK' signature");
                }
                if ((long) pos + 4 + packed > file.length) {
                    throw ImportException.invalid(b + ": compressed size " + packed + " runs past the end of the file ("
                            + (file.length - pos - 4) + " bytes left)");
                }
                if (file[pos + 4] != 'C' || file[pos + 5] != 'K') {
                    throw ImportException.invalid(b + " lacks the MSZIP signature 'CK' (found '"
                            + XHeader.printable(file, pos + 4, 2) + "')");
                }
                if ((long) written + blockSize > size) {
                    throw ImportException.invalid(b + " adds " + blockSize + " bytes to the " + written
                            + " already decompressed, more than the " + size + " the header declares");
                }
                inflater.reset();
                if (previousLength > 0) {
                    inflater.setDictionary(out, previousStart, previousLength);
                }
                inflater.setInput(file, pos + 6, packed - 2);
                int produced = inflateBlock(inflater, out, written, blockSize, b);
                if (produced != blockSize) {
                    throw ImportException.invalid(b + " decompresses to " + produced + " bytes, not the "
                            + blockSize + " it declares");
                }
                previousStart = written;
                previousLength = blockSize;
                written += blockSize;
                pos += 4 + packed;
                block++;
            }
        } finally {
            inflater.end();
        }
        if (written != size) {
            throw ImportException.invalid(where + ": its " + block + " blocks decompress to " + written
                    + " bytes but the header declares " + size);
        }
        return out;
    }

    /** Inflates one block's stream into {@code out[at..at+capacity)}; more output than that is an error. */
    private static int inflateBlock(Inflater inflater, byte[] out, int at, int capacity, String where) {
        int produced = 0;
        boolean dummyGiven = false;
        try {
            while (!inflater.finished()) {
                if (inflater.needsDictionary()) {
                    throw ImportException.invalid(where + ": its deflate data asks for a preset dictionary");
                }
                if (produced == capacity) {
                    if (inflater.inflate(new byte[1]) > 0) {
                        throw ImportException.invalid(where + " decompresses to more than the " + capacity
                                + " bytes it declares");
                    }
                } else {
                    int n = inflater.inflate(out, at + produced, capacity - produced);
                    produced += n;
                    if (n > 0) {
                        continue;
                    }
                }
                if (inflater.finished() || inflater.needsDictionary()) {
                    continue;
                }
                if (!inflater.needsInput() || dummyGiven) {
                    // no output and no input wanted, or still hungry after the padding byte: the stream is cut short
                    throw ImportException.invalid(where + ": its deflate data ends before the end of its stream");
                }
                // zlib may want one byte beyond a raw stream to finish it; that byte is not part of the data
                inflater.setInput(new byte[1]);
                dummyGiven = true;
            }
        } catch (DataFormatException e) {
            throw ImportException.invalid(where + " is not valid deflate data (" + e.getMessage() + ")");
        }
        return produced;
    }

    static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    static long u32(byte[] b, int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
    }
}
