package io.posekit.asset.gltf.meshopt;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;

/**
 * Decodes meshopt-compressed buffer views ({@code EXT_meshopt_compression} and {@code KHR_meshopt_compression}):
 * attributes (bitstream versions 0 and 1), triangle and index-sequence codecs, and the octahedral, quaternion,
 * exponential and colour filters. Written from the extension specification (Appendices A and B), checked bit for
 * bit against the reference decoder (npm {@code meshoptimizer}) on files made by gltfpack and gltf-transform.
 *
 * <p>Every read is bounds-checked against the compressed range; the decoded bytes ({@code count × stride}) are charged
 * to the import's {@link DecodeBudget} before they are allocated, and the decoder checks the import's deadline as it
 * goes. Stateless and thread-safe.
 */
public final class MeshoptDecoder {

    private MeshoptDecoder() {
    }

    /**
     * Decodes {@code count} elements of {@code stride} bytes from {@code src[offset, offset + length)}.
     *
     * @param where the element named in messages, e.g. {@code bufferView 4 EXT_meshopt_compression}
     * @return {@code count × stride} decoded bytes (little-endian, as the uncompressed buffer view would hold them)
     * @throws ImportException (invalid) when the parameters break the extension's rules or the stream is malformed;
     *     (too large) when the decoded size takes the import past its budget
     */
    public static byte[] decode(byte[] src, int offset, int length, int count, int stride, MeshoptMode mode,
            MeshoptFilter filter, DecodeBudget budget, String where) {
        checkParameters(count, stride, mode, filter, where);
        if (offset < 0 || length < 0 || (long) offset + length > src.length) {
            throw ImportException.invalid(where + ": compressed range " + offset + " + " + length
                    + " lies outside the " + src.length + "-byte source");
        }
        budget.charge((long) count * stride, 1, where + " decoded data");
        byte[] out = new byte[count * stride];
        switch (mode) {
            case ATTRIBUTES -> {
                VertexCodec.decode(src, offset, length, count, stride, out, where, budget);
                Filters.apply(filter, out, count, stride);
            }
            case TRIANGLES -> IndexCodec.decodeTriangles(src, offset, length, count, stride, out, where, budget);
            case INDICES -> IndexCodec.decodeSequence(src, offset, length, count, stride, out, where, budget);
        }
        return out;
    }

    /** The extension's constraints on {@code count}, {@code byteStride}, {@code mode} and {@code filter}. */
    private static void checkParameters(int count, int stride, MeshoptMode mode, MeshoptFilter filter, String where) {
        if (count < 0) {
            throw ImportException.invalid(where + ": count " + count + " is negative");
        }
        switch (mode) {
            case ATTRIBUTES -> {
                if (stride < 4 || stride > 256 || stride % 4 != 0) {
                    throw ImportException.invalid(where + ": byteStride " + stride
                            + " must be a multiple of 4 from 4 to 256 in mode ATTRIBUTES");
                }
                if (!filter.allowsStride(stride)) {
                    throw ImportException.invalid(where + ": filter " + filter + " does not allow byteStride " + stride);
                }
            }
            case TRIANGLES, INDICES -> {
                if (stride != 2 && stride != 4) {
                    throw ImportException.invalid(where + ": byteStride " + stride + " must be 2 or 4 in mode " + mode);
                }
                if (filter != MeshoptFilter.NONE) {
                    throw ImportException.invalid(where + ": mode " + mode + " takes no filter, not " + filter);
                }
                if (mode == MeshoptMode.TRIANGLES && count % 3 != 0) {
                    throw ImportException.invalid(where + ": count " + count + " must be a multiple of 3 in mode TRIANGLES");
                }
            }
        }
    }
}
