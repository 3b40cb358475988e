package io.posekit.api.http;

import java.util.List;
import org.springframework.http.MediaType;

/**
 * Content negotiation between JSON (the default), raw float32 ({@code application/octet-stream}) and, for posed
 * meshes, glTF binary ({@code model/gltf-binary}).
 */
public final class Negotiation {

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
        List<MediaType> types;
        try {
            types = MediaType.parseMediaTypes(accept);
        } catch (RuntimeException malformed) {
            return false;
        }
        double octet = 0;
        double json = -1;
        for (MediaType t : types) {
            if (t.getType().equals("application") && t.getSubtype().equals("octet-stream")) {
                octet = Math.max(octet, t.getQualityValue());
            } else if (t.getType().equals("application") && t.getSubtype().equals("json")) {
                json = Math.max(json, t.getQualityValue());
            }
        }
        return octet > 0 && octet >= json;
    }

    /** The media type of a glTF 2.0 binary (GLB). */
    public static final String GLTF_BINARY = "model/gltf-binary";

    /**
     * Whether the client asked for {@code model/gltf-binary}: it is listed explicitly with a non-zero quality, and
     * neither JSON nor {@code application/octet-stream} is listed explicitly with a higher quality. Wildcards choose
     * JSON.
     */
    public static boolean wantsGltfBinary(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        List<MediaType> types;
        try {
            types = MediaType.parseMediaTypes(accept);
        } catch (RuntimeException malformed) {
            return false;
        }
        double glb = 0;
        double other = -1;
        for (MediaType t : types) {
            if (t.getType().equals("model") && t.getSubtype().equals("gltf-binary")) {
                glb = Math.max(glb, t.getQualityValue());
            } else if (t.getType().equals("application")
                    && (t.getSubtype().equals("json") || t.getSubtype().equals("octet-stream"))) {
                other = Math.max(other, t.getQualityValue());
            }
        }
        return glb > 0 && glb >= other;
    }
}
