package io.posekit.api.http;

/**
 * Content negotiation between JSON (the default), raw float32 ({@code application/octet-stream}) and, for posed
 * meshes, glTF binary ({@code model/gltf-binary}). Reads the {@code Accept} header directly: media ranges separated by
 * commas, each with an optional {@code q} parameter (default 1); a malformed header chooses JSON.
 */
public final class Negotiation {

    /** The media type of a glTF 2.0 binary (GLB). */
    public static final String GLTF_BINARY = "model/gltf-binary";
    public static final String JSON = "application/json";
    public static final String OCTET_STREAM = "application/octet-stream";

    private Negotiation() {
    }

    /**
     * Whether the client asked for {@code application/octet-stream}: it is listed explicitly with a non-zero
     * quality, and JSON is not listed explicitly with a higher quality. Wildcards choose JSON.
     */
    public static boolean wantsBinary(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        double octet = quality(accept, OCTET_STREAM);
        double json = quality(accept, JSON);
        return octet > 0 && octet >= json;
    }

    /**
     * Whether the client asked for {@code model/gltf-binary}: it is listed explicitly with a non-zero quality, and
     * neither JSON nor {@code application/octet-stream} is listed explicitly with a higher quality. Wildcards choose
     * JSON.
     */
    public static boolean wantsGltfBinary(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        double glb = quality(accept, GLTF_BINARY);
        double other = Math.max(quality(accept, JSON), quality(accept, OCTET_STREAM));
        return glb > 0 && glb >= other;
    }

    /**
     * The highest quality {@code accept} gives exactly {@code type} (case-insensitive, wildcards ignored), or -1
     * when it does not list it; 0 for a malformed header (so nothing but JSON is chosen).
     */
    static double quality(String accept, String type) {
        double best = -1;
        int from = 0;
        int n = accept.length();
        while (from < n) {
            int comma = accept.indexOf(',', from);
            int end = comma < 0 ? n : comma;
            int semi = accept.indexOf(';', from);
            int typeEnd = semi < 0 || semi > end ? end : semi;
            String range = accept.substring(from, typeEnd).strip();
            if (range.isEmpty()) {
                from = end + 1;
                continue;
            }
            if (range.indexOf('/') <= 0 || range.indexOf('/') == range.length() - 1) {
                return 0;
            }
            if (range.equalsIgnoreCase(type)) {
                double q = 1;
                int p = typeEnd;
                while (p < end) {
                    int next = accept.indexOf(';', p + 1);
                    int stop = next < 0 || next > end ? end : next;
                    String param = accept.substring(p + 1, stop).strip();
                    if (param.regionMatches(true, 0, "q=", 0, 2)) {
                        try {
                            q = Double.parseDouble(param.substring(2).strip());
                        } catch (NumberFormatException e) {
                            return 0;
                        }
                        if (!(q >= 0 && q <= 1)) {
                            return 0;
                        }
                    }
                    p = stop;
                }
                best = Math.max(best, q);
            }
            from = end + 1;
        }
        return best;
    }

    /**
     * Whether {@code accept} admits at least one of {@code produced} (exact types, {@code type/*} or {@code *}{@code /*}
     * with a non-zero quality). No header, or a malformed one, admits everything.
     */
    public static boolean acceptsAny(String accept, java.util.List<String> produced) {
        if (accept == null || accept.isBlank() || produced.isEmpty()) {
            return true;
        }
        for (String part : accept.split(",")) {
            String[] params = part.split(";");
            String range = params[0].strip().toLowerCase(java.util.Locale.ROOT);
            if (range.isEmpty()) {
                continue;
            }
            int slash = range.indexOf('/');
            if (slash <= 0 || slash == range.length() - 1) {
                return true;
            }
            double q = 1;
            for (int i = 1; i < params.length; i++) {
                String p = params[i].strip();
                if (p.regionMatches(true, 0, "q=", 0, 2)) {
                    try {
                        q = Double.parseDouble(p.substring(2).strip());
                    } catch (NumberFormatException e) {
                        return true;
                    }
                }
            }
            if (!(q > 0)) {
                continue;
            }
            for (String type : produced) {
                if (range.equals("*/*") || range.equals(type)
                        || range.endsWith("/*") && type.startsWith(range.substring(0, slash + 1))) {
                    return true;
                }
            }
        }
        return false;
    }
}
