package io.posekit.render;

import io.posekit.skinning.Material;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.WeakHashMap;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * A decoded base colour image: {@code width × height} texels, row-major from the top row, as {@code 0xAARRGGBB} with
 * sRGB colour and straight alpha. Sampled bilinearly in linear light with glTF's default wrapping (repeat) and
 * texture coordinates in glTF's convention (origin at the top-left corner, v down).
 *
 * <p>Decoded once per embedded image and kept as long as the image's bytes are (a weak cache keyed by the bytes'
 * identity, so an asset evicted from posekit's cache takes its decoded textures with it). Immutable; thread-safe.
 */
public final class TextureImage {

    /** Largest width or height decoded; a larger image is left out (the base colour factor alone is used). */
    public static final int MAX_SIZE = 8192;
    private static final Map<byte[], TextureImage> DECODED = Collections.synchronizedMap(new WeakHashMap<>());
    /** Cached for images that cannot be decoded, so they are not tried again. */
    private static final TextureImage NONE = new TextureImage(1, 1, new int[] {-1});

    static {
        // ImageIO finds its plugins (TwelveMonkeys' WebP reader) through the thread's context class loader; in the
        // packaged service (a Spring Boot jar of nested jars) only this class's loader sees them, so scan with it
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try {
            thread.setContextClassLoader(TextureImage.class.getClassLoader());
            ImageIO.scanForPlugins();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    final int width;
    final int height;
    final int[] argb;

    /**
     * @param argb {@code width · height} texels (taken, not copied)
     * @throws IllegalArgumentException when the sizes and the array disagree
     */
    public TextureImage(int width, int height, int[] argb) {
        if (width < 1 || height < 1 || argb.length != (long) width * height) {
            throw new IllegalArgumentException("a " + width + "×" + height + " texture needs " + (long) width * height
                    + " texels, not " + argb.length);
        }
        this.width = width;
        this.height = height;
        this.argb = argb;
    }

    /** The texel at ({@code x}, {@code y}) as {@code 0xAARRGGBB}. */
    public int texel(int x, int y) {
        return argb[y * width + x];
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /**
     * The decoded image of {@code texture} (PNG, JPEG or WebP, through {@code javax.imageio} and the TwelveMonkeys WebP
     * plugin), or {@code null} when it cannot be decoded or is larger than {@value #MAX_SIZE} either way.
     */
    public static TextureImage of(Material.Texture texture) {
        if (texture == null) {
            return null;
        }
        TextureImage t = DECODED.get(texture.bytes());
        if (t == null) {
            t = decode(texture.bytes());
            DECODED.put(texture.bytes(), t == null ? NONE : t);
        }
        return t == NONE ? null : t;
    }

    private static TextureImage decode(byte[] bytes) {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                return null;
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                // the size before the pixels: a small file may claim a huge image
                int w = reader.getWidth(0);
                int h = reader.getHeight(0);
                if (w < 1 || h < 1 || w > MAX_SIZE || h > MAX_SIZE) {
                    return null;
                }
                BufferedImage image = reader.read(0);
                return new TextureImage(w, h, image.getRGB(0, 0, w, h, null, 0, w));
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            return null; // a broken image: the surface keeps its base colour factor
        }
    }
}
