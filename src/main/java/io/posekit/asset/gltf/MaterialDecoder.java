package io.posekit.asset.gltf;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.ktx2.Ktx2Decoder;
import io.posekit.asset.ktx2.RgbaImage;
import io.posekit.skinning.Material;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Decodes glTF materials into format-neutral {@link Material}s, each once per import (primitives that use the
 * same material share the object): name, {@code pbrMetallicRoughness} base colour, metallic and roughness factors,
 * emissive factor, alpha mode and cutoff, double-sidedness, and the base colour texture's image when it is a PNG,
 * JPEG or WebP ({@code EXT_texture_webp}) image the upload holds (a buffer view, a base64 {@code data:} URI or another
 * uploaded file), with its coordinate set and {@code KHR_texture_transform}. Extensions read:
 * {@code KHR_materials_pbrSpecularGlossiness} (its diffuse colour and texture as the base colour),
 * {@code KHR_materials_unlit}, {@code KHR_materials_emissive_strength}, {@code KHR_texture_basisu} (a KTX2
 * Basis Universal ETC1S or UASTC image transcoded to PNG by {@link Ktx2Decoder}; one it cannot transcode falls back to
 * the core image or the base colour factor, with a warning). Texture samplers and the other textures are not
 * carried.
 *
 * <p>Materials were not read before this decoder existed, so a material that cannot be used (a malformed field,
 * a missing image) never fails the import: it is reported as a warning and the primitive gets no material, or the
 * material no texture. Image bytes are charged to the import's {@link DecodeBudget} before they are copied.
 */
final class MaterialDecoder {

    private final GltfDocument doc;
    private final BufferResolver buffers;
    private final SourceFile main;
    private final SourceFiles upload;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Material[] materials;
    private final boolean[] decoded;
    private final Optional<Material.Texture>[] images;
    /** Images transcoded from KTX2, by image index, each once. */
    private final Optional<Material.Texture>[] ktx2;

    @SuppressWarnings("unchecked")
    MaterialDecoder(GltfDocument doc, BufferResolver buffers, SourceFile main, SourceFiles upload, DecodeBudget budget,
            ImportWarnings warnings) {
        this.doc = doc;
        this.buffers = buffers;
        this.main = main;
        this.upload = upload;
        this.budget = budget;
        this.warnings = warnings;
        this.materials = new Material[doc.count("materials")];
        this.decoded = new boolean[materials.length];
        this.images = new Optional[doc.count("images")];
        this.ktx2 = new Optional[doc.count("images")];
    }

    /**
     * The {@code material} of a primitive, or {@code null} when it has none or it cannot be used (then with a
     * warning).
     *
     * @throws ImportException (invalid) when {@code material} is not an index
     */
    Material forPrimitive(JsonNode primitive, String where) {
        if (!Json.has(primitive, "material")) {
            return null;
        }
        int index = Json.reqInt(primitive, "material", where);
        if (index < 0 || index >= materials.length) {
            warnings.add(where + ": material " + index + " does not exist (there are " + materials.length
                    + "); no material is used");
            return null;
        }
        if (!decoded[index]) {
            decoded[index] = true;
            try {
                materials[index] = decode(index);
            } catch (ImportException e) {
                budget.checkTimeNow();
                if (e.kind() != ImportException.Kind.INVALID) {
                    throw e;
                }
                warnings.add(e.getMessage() + "; the material is not used");
            }
        }
        return materials[index];
    }

    private Material decode(int index) {
        String where = "material " + index;
        JsonNode m = doc.element("materials", index, "material");
        String name = Json.optString(m, "name", where);
        JsonNode extensions = Json.optObject(m, "extensions", where);
        float[] baseColor = {1, 1, 1, 1};
        float metallic = 1;
        float roughness = 1;
        BaseTexture base = BaseTexture.NONE;
        JsonNode pbr = Json.optObject(m, "pbrMetallicRoughness", where);
        JsonNode specGloss = extensions == null ? null
                : Json.optObject(extensions, "KHR_materials_pbrSpecularGlossiness", where + " extensions");
        if (specGloss != null) {
            // older Sketchfab exports: the diffuse colour and texture are the base colour; no metal, gloss as smoothness
            String sw = where + " KHR_materials_pbrSpecularGlossiness";
            float[] f = Json.optFloats(specGloss, "diffuseFactor", 4, sw);
            if (f != null) {
                baseColor = unit(f, "diffuseFactor", sw);
            }
            metallic = 0;
            roughness = 1 - unit(number(specGloss, "glossinessFactor", 1, sw), "glossinessFactor", sw);
            base = baseTexture(Json.optObject(specGloss, "diffuseTexture", sw), sw + " diffuseTexture");
        } else if (pbr != null) {
            String pw = where + " pbrMetallicRoughness";
            float[] f = Json.optFloats(pbr, "baseColorFactor", 4, pw);
            if (f != null) {
                baseColor = unit(f, "baseColorFactor", pw);
            }
            metallic = unit(number(pbr, "metallicFactor", 1, pw), "metallicFactor", pw);
            roughness = unit(number(pbr, "roughnessFactor", 1, pw), "roughnessFactor", pw);
            base = baseTexture(Json.optObject(pbr, "baseColorTexture", pw), pw + " baseColorTexture");
        }
        float[] emissive = Json.optFloats(m, "emissiveFactor", 3, where);
        emissive = emissive == null ? new float[3] : unit(emissive, "emissiveFactor", where);
        boolean unlit = extensions != null && Json.optObject(extensions, "KHR_materials_unlit", where + " extensions") != null;
        float emissiveStrength = 1;
        JsonNode strength = extensions == null ? null
                : Json.optObject(extensions, "KHR_materials_emissive_strength", where + " extensions");
        if (strength != null) {
            emissiveStrength = number(strength, "emissiveStrength", 1, where + " KHR_materials_emissive_strength");
            if (emissiveStrength < 0) {
                throw ImportException.invalid(where + " KHR_materials_emissive_strength: emissiveStrength "
                        + emissiveStrength + " is negative");
            }
        }
        String alpha = Json.optString(m, "alphaMode", where);
        Material.AlphaMode alphaMode = Material.AlphaMode.OPAQUE;
        if (alpha != null) {
            try {
                alphaMode = Material.AlphaMode.valueOf(alpha);
            } catch (IllegalArgumentException e) {
                throw ImportException.invalid(where + ": alphaMode '" + Json.shorten(alpha, 40)
                        + "' is not one of OPAQUE, MASK, BLEND");
            }
        }
        float cutoff = number(m, "alphaCutoff", 0.5f, where);
        if (cutoff < 0) {
            throw ImportException.invalid(where + ": alphaCutoff " + cutoff + " is negative");
        }
        boolean doubleSided = Json.optBoolean(m, "doubleSided", false, where);
        return new Material(name, baseColor, metallic, roughness, emissive, alphaMode, cutoff, doubleSided,
                base.texture(), base.texCoord(), base.transform(), unlit, emissiveStrength);
    }

    /** A base colour texture as carried: its image, coordinate set and transform. */
    private record BaseTexture(Material.Texture texture, int texCoord, Material.TextureTransform transform) {
        static final BaseTexture NONE = new BaseTexture(null, 0, null);
    }

    /**
     * The base colour texture of texture info {@code info} ({@code null}: none): its image, its {@code texCoord}, and
     * its {@code KHR_texture_transform} (whose own {@code texCoord} overrides the info's). A texture that cannot be
     * carried is reported as a warning and left out.
     */
    private BaseTexture baseTexture(JsonNode info, String where) {
        if (info == null) {
            return BaseTexture.NONE;
        }
        try {
            Material.Texture texture = texture(info, where);
            if (texture == null) {
                return BaseTexture.NONE;
            }
            int texCoord = Json.optInt(info, "texCoord", 0, where);
            Material.TextureTransform transform = null;
            JsonNode extensions = Json.optObject(info, "extensions", where);
            JsonNode tt = extensions == null ? null
                    : Json.optObject(extensions, "KHR_texture_transform", where + " extensions");
            if (tt != null) {
                String tw = where + " KHR_texture_transform";
                float[] offset = Json.optFloats(tt, "offset", 2, tw);
                float[] scale = Json.optFloats(tt, "scale", 2, tw);
                offset = offset == null ? new float[2] : offset;
                scale = scale == null ? new float[] {1, 1} : scale;
                float rotation = number(tt, "rotation", 0, tw);
                transform = new Material.TextureTransform(offset[0], offset[1], rotation, scale[0], scale[1]);
                texCoord = Json.optInt(tt, "texCoord", texCoord, tw);
                if (texCoord < 0) {
                    throw ImportException.invalid(tw + ": texCoord " + texCoord + " is negative");
                }
            }
            return new BaseTexture(texture, texCoord, transform);
        } catch (ImportException e) {
            budget.checkTimeNow();
            if (e.kind() != ImportException.Kind.INVALID) {
                throw e;
            }
            warnings.add(e.getMessage() + "; the texture is not carried");
            return BaseTexture.NONE;
        } catch (IllegalArgumentException e) {
            warnings.add(where + ": " + e.getMessage() + "; the texture is not carried");
            return BaseTexture.NONE;
        }
    }

    /**
     * The image of a texture info, or {@code null} (with a warning) when it cannot be carried: the
     * {@code EXT_texture_webp} source when there is one (as a viewer that decodes WebP prefers it), else the
     * {@code KHR_texture_basisu} (KTX2) source transcoded to PNG (as a viewer that decodes KTX2 prefers it), else the
     * core {@code source}. A KTX2 image that cannot be transcoded falls back to the core source, or to no texture
     * (the base colour factor), with a warning either way.
     */
    private Material.Texture texture(JsonNode info, String where) {
        int textureIndex = Json.reqInt(info, "index", where);
        int texCoord = Json.optInt(info, "texCoord", 0, where);
        if (texCoord < 0) {
            throw ImportException.invalid(where + ": texCoord " + texCoord + " is negative");
        }
        JsonNode texture = doc.element("textures", textureIndex, "texture");
        String tw = "texture " + textureIndex;
        JsonNode extensions = Json.optObject(texture, "extensions", tw);
        JsonNode webp = extensions == null ? null : Json.optObject(extensions, "EXT_texture_webp", tw + " extensions");
        JsonNode basisu = extensions == null ? null : Json.optObject(extensions, "KHR_texture_basisu", tw + " extensions");
        if (webp != null) {
            return source(webp, tw + " EXT_texture_webp");
        }
        if (basisu != null) {
            String bw = tw + " KHR_texture_basisu";
            int image = Json.checkIndex(Json.reqInt(basisu, "source", bw), images.length, "source image", bw);
            if (ktx2[image] == null) {
                ktx2[image] = Optional.ofNullable(ktx2Image(image, bw, Json.has(texture, "source")
                        ? "its fallback image is used" : "the base colour factor alone is used"));
            }
            if (ktx2[image].isPresent()) {
                return ktx2[image].get();
            }
        }
        if (!Json.has(texture, "source")) {
            if (basisu == null) {
                warnings.add(tw + " has no PNG, JPEG or WebP source (only an extension's image); it is not carried");
            }
            return null;
        }
        return source(texture, tw);
    }

    /**
     * Image {@code index} as a KTX2 file transcoded to PNG ({@link Ktx2Decoder}), or {@code null} with a warning that
     * ends {@code then} (what is used instead) when it is not KTX2 or cannot be transcoded. Over the decode budget is the import's 413.
     */
    private Material.Texture ktx2Image(int index, String where, String then) {
        byte[] bytes = imageBytes(index, "image " + index);
        if (bytes == null) {
            return null;
        }
        try {
            RgbaImage decoded = Ktx2Decoder.decode(bytes, "image " + index, budget);
            // the ARGB copy and its PNG
            budget.charge((long) decoded.width() * decoded.height(), 8, "image " + index + " as PNG");
            return new Material.Texture(Material.Texture.PNG, decoded.png());
        } catch (ImportException e) {
            if (e.kind() == ImportException.Kind.TOO_LARGE) {
                throw e;
            }
            budget.checkTimeNow();
            warnings.add(where + ": " + e.getMessage() + "; " + then);
            return null;
        }
    }

    /** The image named by {@code source} of {@code holder} (a texture or its WebP extension), decoded once. */
    private Material.Texture source(JsonNode holder, String where) {
        int image = Json.checkIndex(Json.reqInt(holder, "source", where), images.length, "source image", where);
        if (images[image] == null) {
            images[image] = Optional.ofNullable(image(image));
        }
        return images[image].orElse(null);
    }

    /** The bytes of image {@code index} if they are a PNG, JPEG or WebP image, else {@code null} with a warning. */
    private Material.Texture image(int index) {
        String where = "image " + index;
        byte[] bytes = imageBytes(index, where);
        if (bytes == null) {
            return null;
        }
        String mime = Material.Texture.sniff(bytes);
        if (mime == null) {
            warnings.add(where + " is not a PNG, JPEG or WebP image; the texture is not carried");
            return null;
        }
        return new Material.Texture(mime, bytes);
    }

    /** The bytes of image {@code index} (charged to the budget), or {@code null} when its file is not uploaded. */
    private byte[] imageBytes(int index, String where) {
        JsonNode image = doc.element("images", index, "image");
        if (Json.has(image, "bufferView")) {
            ByteBuffer data = buffers.view(Json.reqInt(image, "bufferView", where), "bufferView", where).data();
            budget.charge(data.capacity(), 1, where);
            byte[] bytes = new byte[data.capacity()];
            data.duplicate().get(0, bytes);
            return bytes;
        }
        String uri = Json.optString(image, "uri", where);
        if (uri == null) {
            throw ImportException.invalid(where + " has neither a uri nor a bufferView");
        }
        if (UriReference.isDataUri(uri)) {
            return decodeDataUri(uri, where);
        }
        Optional<SourceFile> file = UriReference.resolve(uri, where, main, upload);
        if (file.isEmpty()) {
            return null; // already reported by the buffer resolver
        }
        budget.charge(file.get().size(), 1, where);
        // a file on disk is read into a new array; one in memory is shared, so copied
        return file.get().isOnDisk() ? file.get().bytes() : file.get().bytes().clone();
    }

    private byte[] decodeDataUri(String uri, String where) {
        int comma = uri.indexOf(',');
        if (comma < 0 || !uri.substring(0, comma).toLowerCase(java.util.Locale.ROOT).endsWith(";base64")) {
            throw ImportException.invalid(where + ": data URI '" + Json.shorten(uri, 60) + "' is not base64-encoded");
        }
        budget.charge((uri.length() - comma - 1) / 4 * 3L + 3, 1, where + " data URI");
        try {
            return Base64.getDecoder().decode(uri.substring(comma + 1));
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": data URI has invalid base64: " + e.getMessage());
        }
    }

    private static float number(JsonNode obj, String key, float def, String where) {
        JsonNode v = Json.field(obj, key);
        if (v == null) {
            return def;
        }
        if (!v.isNumber() || !Float.isFinite((float) v.doubleValue())) {
            throw ImportException.invalid(where + ": " + key + " must be a finite number, not " + Json.quote(v));
        }
        return (float) v.doubleValue();
    }

    private static float unit(float v, String key, String where) {
        if (v < 0 || v > 1) {
            throw ImportException.invalid(where + ": " + key + " " + v + " is outside 0..1");
        }
        return v;
    }

    private static float[] unit(float[] v, String key, String where) {
        for (int i = 0; i < v.length; i++) {
            if (v[i] < 0 || v[i] > 1) {
                throw ImportException.invalid(where + ": " + key + "[" + i + "] " + v[i] + " is outside 0..1");
            }
        }
        return v;
    }
}
