package io.posekit.asset;

import io.posekit.skinning.Material;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Optional;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * Turns the image a model file embeds or names (FBX {@code Video/Content}, a COLLADA {@code <init_from>} file, a
 * {@code .x} {@code TextureFilename}, …) into a {@link Material.Texture} every later stage can use: PNG and JPEG are
 * kept byte for byte; anything an installed {@code javax.imageio} plugin reads — TGA, BMP, PSD, WebP, GIF (the
 * TwelveMonkeys plugins on the class path) — is decoded and written again as PNG by ImageIO's own writer, so glTF
 * export and the renderer only ever see PNG or JPEG.
 *
 * <p>An image that cannot be used (no plugin reads it, it is broken, or it is wider or taller than
 * {@value #MAX_SIZE} pixels) is never an import failure: it gives {@code null} and one warning, and the material keeps
 * its colour. The size is read from the header before any pixel is decoded, and the decoded pixels (4 bytes each, twice:
 * the image and its PNG) are charged to the import's {@link DecodeBudget} first.
 *
 * <p>ImageIO finds its plugins through the thread context class loader, which in the packaged service (a Spring Boot
 * jar, plugins in {@code BOOT-INF/lib}) need not be the loader that sees them: the first use registers the plugins
 * visible to this class's own loader. Thread-safe.
 */
public final class TextureImages {

    /** Largest width or height converted (as the renderer's limit). */
    public static final int MAX_SIZE = 8192;

    static {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try {
            thread.setContextClassLoader(TextureImages.class.getClassLoader());
            ImageIO.scanForPlugins();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private TextureImages() {
    }

    /**
     * The texture of an encoded image.
     *
     * @param bytes the image file's bytes (kept, not copied, when they are a PNG or JPEG)
     * @param fileName the name the source gives the image (its extension picks the reader when the bytes do not
     *     identify themselves, as TGA's do not), or {@code null}
     * @param where how warnings name the image, e.g. {@code Video 'skin.tga'}
     * @return the texture, or {@code null} (with a warning) when the image cannot be read
     * @throws ImportException (too large) when the decoded pixels take the import past its decode budget; (invalid)
     *     past the parse deadline
     */
    public static Material.Texture texture(byte[] bytes, String fileName, String where, DecodeBudget budget,
            ImportWarnings warnings) {
        String mime = Material.Texture.sniff(bytes);
        if (mime != null) {
            return new Material.Texture(mime, bytes);
        }
        budget.checkTimeNow();
        ImageReader reader = null;
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            reader = reader(bytes, fileName);
            if (reader == null) {
                warnings.add(where + " is not an image format posekit reads (PNG, JPEG, TGA, BMP, PSD, WebP, GIF);"
                        + " the material's colour is used");
                return null;
            }
            reader.setInput(in, false, true);
            int w = reader.getWidth(0);
            int h = reader.getHeight(0);
            if (w < 1 || h < 1 || w > MAX_SIZE || h > MAX_SIZE) {
                warnings.add(where + " is " + w + "×" + h + " pixels, outside 1.." + MAX_SIZE
                        + " either way; the material's colour is used");
                return null;
            }
            // the image, its ARGB copy and the copy's texel array
            budget.charge(3L * w * h, 4, where + " decoded pixels");
            BufferedImage image = reader.read(0);
            return new Material.Texture(Material.Texture.PNG, png(image));
        } catch (IOException | RuntimeException e) {
            if (e instanceof ImportException ie) {
                throw ie;
            }
            warnings.add(where + " cannot be decoded (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + shorten(e.getMessage())) + "); the material's colour is used");
            return null;
        } finally {
            if (reader != null) {
                reader.dispose();
            }
        }
    }

    /**
     * The texture of the image file {@code path} names among the upload's files (never the file system): the path as
     * written (backslashes read as slashes, relative to {@code main}'s folder), else a unique file of its base name (a
     * multipart upload carries base names; an absolute path such as {@code C:\\art\\skin.tga} or
     * {@code /home/me/skin.tga} is found this way).
     *
     * @param main the model file, or {@code null} (then nothing is found)
     * @param upload the upload's files, or {@code null}
     * @param where how warnings name the reference, e.g. {@code Material 'skin'}
     * @return the texture, or {@code null} with a warning when the file is not there or cannot be read
     */
    public static Material.Texture fromUpload(SourceFile main, SourceFiles upload, String path, String where,
            DecodeBudget budget, ImportWarnings warnings) {
        Optional<SourceFile> file = find(main, upload, path);
        if (file.isEmpty()) {
            warnings.add(where + ": its image '" + shorten(path) + "' is not among the uploaded files; the material's"
                    + " colour is used");
            return null;
        }
        return texture(file.get(), where, budget, warnings);
    }

    /** The texture of an uploaded image file (its bytes charged to the budget first); {@code null} with a warning. */
    public static Material.Texture texture(SourceFile file, String where, DecodeBudget budget, ImportWarnings warnings) {
        budget.charge(file.size(), 1, where + " image file");
        return texture(file.bytes(), file.name(), where + ": image '" + shorten(file.name()) + "'", budget, warnings);
    }

    /**
     * The texture of the uploaded image whose base name without its extension is {@code stem}'s (case-insensitive;
     * any extension some reader takes, PNG, JPEG and TGA first) — how MD5 shader names and IQM material names refer
     * to images; {@code null} (without a warning) when there is none.
     */
    public static Material.Texture byStem(SourceFiles upload, String stem, String where, DecodeBudget budget,
            ImportWarnings warnings) {
        if (upload == null || stem == null || stem.isBlank()) {
            return null;
        }
        String normalized = stem.replace('\\', '/');
        String base = strip(normalized.substring(normalized.lastIndexOf('/') + 1)).toLowerCase(Locale.ROOT);
        SourceFile best = null;
        int bestRank = Integer.MAX_VALUE;
        for (SourceFile f : upload.files()) {
            String name = f.baseName().toLowerCase(Locale.ROOT);
            int dot = name.lastIndexOf('.');
            if (dot <= 0 || !name.substring(0, dot).equals(base)) {
                continue;
            }
            int rank = IMAGE_SUFFIXES.indexOf(name.substring(dot + 1));
            if (rank >= 0 && rank < bestRank) {
                best = f;
                bestRank = rank;
            }
        }
        if (best == null) {
            return null;
        }
        return texture(best, where, budget, warnings);
    }

    /** Image file extensions in the order {@link #byStem} prefers them. */
    private static final java.util.List<String> IMAGE_SUFFIXES = java.util.List.of("png", "jpg", "jpeg", "tga", "bmp",
            "psd", "webp", "gif");

    /** Whether {@code name} ends in an image file extension {@link #byStem} knows ({@code .png}, {@code .tga}, …). */
    public static boolean hasImageSuffix(String name) {
        int dot = name.lastIndexOf('.');
        return dot >= 0 && IMAGE_SUFFIXES.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    private static String strip(String name) {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /**
     * The uploaded file {@code path} names (see {@link #fromUpload}), or empty.
     *
     * @param main the model file, or {@code null} (then nothing is found)
     */
    public static Optional<SourceFile> find(SourceFile main, SourceFiles upload, String path) {
        if (main == null || upload == null || path == null || path.isBlank()) {
            return Optional.empty();
        }
        String normalized = path.trim().replace('\\', '/');
        Optional<SourceFile> file = upload.resolve(main, normalized);
        if (file.isEmpty()) {
            String base = normalized.substring(normalized.lastIndexOf('/') + 1);
            file = base.isEmpty() ? file : upload.resolve(main, base);
        }
        return file;
    }

    /** A reader for the stream: by content, else by the file name's extension; {@code null} when none fits. */
    private static ImageReader reader(byte[] bytes, String fileName) throws IOException {
        Iterator<ImageReader> readers;
        // a plugin's content test may flush the stream it looks at: the reader gets a stream of its own
        try (ImageInputStream probe = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            readers = ImageIO.getImageReaders(probe);
        }
        if (readers.hasNext()) {
            return readers.next();
        }
        if (fileName != null && fileName.lastIndexOf('.') >= 0) {
            String suffix = fileName.substring(fileName.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
            Iterator<ImageReader> bySuffix = ImageIO.getImageReadersBySuffix(suffix);
            if (bySuffix.hasNext()) {
                return bySuffix.next();
            }
        }
        return null;
    }

    /** The image as PNG (straight RGBA 8 bits a channel, or RGB when it has no alpha). */
    private static byte[] png(BufferedImage image) throws IOException {
        int w = image.getWidth();
        int h = image.getHeight();
        boolean alpha = image.getColorModel().hasAlpha();
        BufferedImage rgb = new BufferedImage(w, h, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
        rgb.setRGB(0, 0, w, h, image.getRGB(0, 0, w, h, null, 0, w), 0, w);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (!ImageIO.write(rgb, "png", out)) {
            throw new IOException("no PNG writer");
        }
        return out.toByteArray();
    }

    private static String shorten(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }
}
