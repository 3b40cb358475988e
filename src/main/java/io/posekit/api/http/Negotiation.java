package io.posekit.api.http;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.http.MediaType;

/**
 * Content negotiation (RFC 9110 §12.5.1) between JSON (the default), raw float32 ({@code application/octet-stream})
 * and, for posed meshes, glTF binary ({@code model/gltf-binary}): the {@code Accept} header is parsed by Spring's
 * {@link MediaType}; each type a route produces gets the quality of the most specific media range that includes it
 * ({@code application/octet-stream} over {@code application/*} over {@code *}{@code /*}), and the highest quality
 * wins, ties going to the route's first type (JSON). A missing or malformed header admits every type and chooses the
 * first. Parsed headers are kept (a few hundred distinct ones), so a request pays a map lookup.
 */
public final class Negotiation {

    /** The media type of a glTF 2.0 binary (GLB). */
    public static final String GLTF_BINARY = "model/gltf-binary";
    public static final String JSON = "application/json";
    public static final String OCTET_STREAM = "application/octet-stream";

    private static final List<String> JSON_OR_BINARY = List.of(JSON, OCTET_STREAM);
    private static final List<String> JSON_BINARY_OR_GLB = List.of(JSON, OCTET_STREAM, GLTF_BINARY);
    /** At most this many distinct Accept headers are kept parsed. */
    private static final int KEPT = 256;
    private static final List<MediaType> MALFORMED = List.of();
    private static final Map<String, List<MediaType>> parsed = new ConcurrentHashMap<>();
    private static final Map<String, MediaType> types = new ConcurrentHashMap<>();

    private Negotiation() {
    }

    /**
     * The type among {@code produced} that {@code accept} prefers, or {@code null} when it admits none of them (a
     * 406).
     */
    public static String choose(String accept, List<String> produced) {
        if (produced.isEmpty()) {
            return null;
        }
        if (accept == null || accept.isBlank()) {
            return produced.getFirst();
        }
        List<MediaType> ranges = ranges(accept);
        if (ranges == MALFORMED) {
            return produced.getFirst();
        }
        String best = null;
        double bestQuality = 0;
        for (String type : produced) {
            double q = quality(ranges, types.computeIfAbsent(type, MediaType::parseMediaType));
            if (q > bestQuality) {
                best = type;
                bestQuality = q;
            }
        }
        return best;
    }

    /** Whether the client prefers {@code application/octet-stream} to JSON. */
    public static boolean wantsBinary(String accept) {
        return OCTET_STREAM.equals(choose(accept, JSON_OR_BINARY));
    }

    /** Whether the client prefers {@code model/gltf-binary} to JSON and to {@code application/octet-stream}. */
    public static boolean wantsGltfBinary(String accept) {
        return GLTF_BINARY.equals(choose(accept, JSON_BINARY_OR_GLB));
    }

    /** Whether {@code accept} admits at least one of {@code produced}. */
    public static boolean acceptsAny(String accept, List<String> produced) {
        return produced.isEmpty() || choose(accept, produced) != null;
    }

    /** The quality the most specific range including {@code type} gives it; 0 when none includes it. */
    private static double quality(List<MediaType> ranges, MediaType type) {
        MediaType match = null;
        for (MediaType range : ranges) {
            if (range.includes(type) && (match == null || specificity(range) > specificity(match))) {
                match = range;
            }
        }
        return match == null ? 0 : match.getQualityValue();
    }

    /** {@code *}{@code /*} 0, {@code type/*} 1, {@code type/sub} 2, plus its parameters other than q. */
    private static int specificity(MediaType range) {
        if (range.isWildcardType()) {
            return 0;
        }
        if (range.isWildcardSubtype()) {
            return 1;
        }
        int params = range.getParameters().size() - (range.getParameters().containsKey("q") ? 1 : 0);
        return 2 + params;
    }

    private static List<MediaType> ranges(String accept) {
        List<MediaType> r = parsed.get(accept);
        if (r != null) {
            return r;
        }
        try {
            r = List.copyOf(MediaType.parseMediaTypes(accept));
        } catch (IllegalArgumentException e) { // InvalidMediaTypeException among them
            r = MALFORMED;
        }
        if (parsed.size() >= KEPT) {
            parsed.clear();
        }
        parsed.put(accept, r);
        return r;
    }
}
