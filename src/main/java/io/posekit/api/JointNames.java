package io.posekit.api;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.posekit.api.json.JsonOut;
import io.posekit.asset.Model;
import io.posekit.rig.Skin;

/**
 * The JSON array of a skin's joint names ({@code ["hips","spine",…]}, in the skin's joint order) as ready bytes: a
 * function of the asset, written once per cached skin rather than per answer. Held weakly by the skin, so an evicted
 * model takes its entry with it.
 */
final class JointNames {

    private final Cache<Skin, byte[]> names = Caffeine.newBuilder().weakKeys().executor(Runnable::run).build();

    byte[] of(Model model, Skin skin) {
        byte[] cached = names.getIfPresent(skin);
        if (cached != null) {
            return cached;
        }
        return names.get(skin, s -> {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            out.write('[');
            for (int k = 0; k < s.jointCount(); k++) {
                if (k > 0) {
                    out.write(',');
                }
                out.writeBytes(JsonOut.quoted(model.rig().name(s.jointNode(k))));
            }
            out.write(']');
            return out.toByteArray();
        });
    }
}
