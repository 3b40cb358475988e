package io.posekit.api;

import java.util.List;
import org.springframework.http.MediaType;

/** Content negotiation between JSON (the default) and raw float32 ({@code application/octet-stream}). */
final class Negotiation {

    private Negotiation() {
    }

    /**
     * Whether the client asked for {@code application/octet-stream}: it is listed explicitly with a non-zero
     * quality, and JSON is not listed explicitly with a higher quality. Wildcards choose JSON.
     */
    static boolean wantsBinary(String accept) {
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
}
