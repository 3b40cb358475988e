package io.posekit.store;

import io.posekit.asset.ImportException;
import io.posekit.retarget.RetargetRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link RetargetRequest} as the small JSON file stored with a retargeted asset ({@value #FILE}): written in one
 * canonical form (fixed key order, the joint map sorted by target joint), so the same request always gives the same
 * bytes and so the same content id.
 */
final class RetargetRequests {

    /** The file's name inside its {@code retarget/<k>/} group. */
    static final String FILE = "request.json";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RetargetRequests() {
    }

    static byte[] write(RetargetRequest request) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("clips", request.clips());
        out.put("jointMap", new TreeMap<>(request.jointMap()));
        out.put("rootMotion", request.rootMotion().wireName());
        out.put("rootJoint", request.rootJoint());
        out.put("keepTranslations", request.keepTranslations());
        return JSON.writeValueAsBytes(out);
    }

    /**
     * @throws ImportException (invalid) when the bytes are not a request this class wrote
     */
    static RetargetRequest read(byte[] bytes) {
        try {
            JsonNode node = JSON.readTree(bytes);
            List<String> clips = new ArrayList<>();
            node.get("clips").forEach(c -> clips.add(c.asString()));
            Map<String, String> map = new TreeMap<>();
            node.get("jointMap").properties().forEach(e -> map.put(e.getKey(), e.getValue().asString()));
            JsonNode root = node.get("rootJoint");
            return new RetargetRequest(clips, map, RetargetRequest.RootMotion.parse(node.get("rootMotion").asString()),
                    root == null || root.isNull() ? null : root.asString(), node.get("keepTranslations").asBoolean());
        } catch (JacksonException | NullPointerException | IllegalArgumentException e) {
            throw ImportException.invalid("a stored retargeting request is unreadable: " + e.getMessage());
        }
    }
}
