package io.posekit.api;

import io.posekit.api.http.ApiException;
import io.posekit.api.http.Negotiation;
import io.posekit.asset.Model;
import io.posekit.export.Compression;
import io.posekit.export.Coordinates;
import io.posekit.export.GlbWriter;
import io.posekit.export.PosedMeshes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ContentDisposition;
import io.posekit.api.http.Reply;

/**
 * The {@code model/gltf-binary} responses of posed meshes: the instances posed at the sampled time, in glTF's space
 * unless {@code coordinates=file} asks for the file's, written by {@link GlbWriter} with the sampling echoed in
 * {@code asset.extras}, served inline with a file name.
 */
final class PosedGlb {

    private PosedGlb() {
    }

    /**
     * The GLB of mesh instances {@code meshes} of {@code model} posed as {@code s} says, stored as {@code compression}
     * says, in {@code coordinates} (glTF's: the file's model space converted to metres and Y-up).
     */
    static Reply response(String id, Model model, Sampling s, String filename, Compression compression,
            Coordinates coordinates, int... meshes) {
        float[] matrices = s.evaluate(model).modelMatrices();
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("asset", id);
        extras.put("clip", s.clipName());
        extras.put("time", s.time());
        extras.put("loop", s.loop().wireName());
        extras.put("localTime", s.localTime());
        if (s.layers() != null) {
            extras.put("layers", s.layers());
        }
        if (compression != Compression.NONE) {
            extras.put("compression", compression.wireName());
        }
        if (!model.space().isGltf()) {
            extras.put("coordinates", coordinates.wireName());
        }
        byte[] glb;
        try {
            glb = GlbWriter.write(PosedMeshes.convert(PosedMeshes.of(model, matrices, s.morphWeights(model), meshes),
                    model.space(), coordinates), extras, compression);
        } catch (IllegalArgumentException e) {
            // non-finite posed vertices (a degenerate pose of a hostile file) or a GLB over the format's limits
            throw new ApiException(org.springframework.http.HttpStatus.UNPROCESSABLE_CONTENT, "Not writable as GLB",
                    e.getMessage());
        }
        return Reply.of(200, Negotiation.GLTF_BINARY, glb)
                .header("Content-Disposition", ContentDisposition.inline().filename(filename).build().toString());
    }
}
