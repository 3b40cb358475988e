package io.posekit.asset.gltf;

import io.posekit.asset.ImportException;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.io.ByteArrayOutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The security policy for the {@code uri} of a glTF buffer or image. A URI is either a {@code data:} URI
 * (decoded elsewhere) or, after percent-decoding, a relative path to another file of the same upload,
 * resolved with {@link SourceFiles#resolve}. Anything that could reach outside the upload (a scheme such as
 * {@code http:} or {@code file:}, an absolute or network path, a Windows drive, or {@code ..} segments that
 * climb above the upload's root) is rejected. Nothing here touches the file system or the network.
 */
final class UriReference {

    /** A URI scheme (RFC 3986); also matches Windows drive letters such as {@code C:}. */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final int QUOTE_LIMIT = 200;
    private static final int LISTED_FILES = 10;

    private UriReference() {
    }

    /** Whether {@code uri} is a {@code data:} URI (scheme compared case-insensitively). */
    static boolean isDataUri(String uri) {
        return uri.regionMatches(true, 0, "data:", 0, 5);
    }

    /**
     * Resolves a non-{@code data:} URI to an uploaded file.
     *
     * @param where the referring element, e.g. {@code buffer 0}
     * @return the file, or empty when the (safe, relative) path names no uploaded file
     * @throws ImportException (invalid) when the URI is external, absolute, climbs out of the upload, or has a
     *     malformed percent-escape
     */
    static Optional<SourceFile> resolve(String uri, String where, SourceFile main, SourceFiles upload) {
        String path = percentDecode(uri, where);
        if (SCHEME.matcher(uri).find() || SCHEME.matcher(path).find() || path.startsWith("/")
                || path.startsWith("\\") || path.indexOf('\0') >= 0) {
            throw ImportException.invalid(where + ": uri '" + quote(uri)
                    + "' is external; only data: URIs and files uploaded with the asset are allowed");
        }
        if (path.isEmpty()) {
            throw ImportException.invalid(where + ": uri is empty");
        }
        if (climbsOut(main.name(), path)) {
            throw ImportException.invalid(where + ": uri '" + quote(uri)
                    + "' climbs out of the upload with '..'; only data: URIs and files uploaded with the asset are allowed");
        }
        return upload.resolve(main, path);
    }

    /** The message for a safe relative URI that names no uploaded file. */
    static String notUploaded(String uri, String where, SourceFiles upload) {
        List<String> names = new ArrayList<>();
        for (SourceFile f : upload.files()) {
            if (names.size() == LISTED_FILES) {
                names.add("… " + (upload.files().size() - LISTED_FILES) + " more");
                break;
            }
            names.add(f.name());
        }
        return where + ": uri '" + quote(uri) + "' is not one of the uploaded files (uploaded: " + String.join(", ", names)
                + ")";
    }

    /** {@code uri} cut for a message. */
    static String quote(String uri) {
        return Json.shorten(uri, QUOTE_LIMIT);
    }

    /** Whether {@code path}, taken relative to the directory of {@code mainName}, climbs above the upload root. */
    private static boolean climbsOut(String mainName, String path) {
        String normalizedMain = mainName.replace('\\', '/');
        int depth = 0;
        for (String seg : normalizedMain.split("/", -1)) {
            if (!seg.isEmpty() && !seg.equals(".")) {
                depth = seg.equals("..") ? Math.max(0, depth - 1) : depth + 1;
            }
        }
        depth = Math.max(0, depth - 1); // the main file's directory
        for (String seg : path.replace('\\', '/').split("/", -1)) {
            if (seg.isEmpty() || seg.equals(".")) {
                continue;
            }
            if (seg.equals("..")) {
                if (depth == 0) {
                    return true;
                }
                depth--;
            } else {
                depth++;
            }
        }
        return false;
    }

    /**
     * Decodes {@code %XX} escapes (as UTF-8); {@code +} stays a plus.
     *
     * @throws ImportException (invalid) on a malformed escape or escapes that are not UTF-8
     */
    static String percentDecode(String uri, String where) {
        if (uri.indexOf('%') < 0) {
            return uri;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(uri.length());
        StringBuilder out = new StringBuilder(uri.length());
        for (int i = 0; i < uri.length(); ) {
            char c = uri.charAt(i);
            if (c != '%') {
                flush(bytes, out, uri, where);
                out.append(c);
                i++;
                continue;
            }
            int hi = i + 2 < uri.length() ? Character.digit(uri.charAt(i + 1), 16) : -1;
            int lo = i + 2 < uri.length() ? Character.digit(uri.charAt(i + 2), 16) : -1;
            if (hi < 0 || lo < 0) {
                throw ImportException.invalid(where + ": uri '" + quote(uri) + "' has a malformed percent-escape at "
                        + "character " + i);
            }
            bytes.write(hi << 4 | lo);
            i += 3;
        }
        flush(bytes, out, uri, where);
        return out.toString();
    }

    private static void flush(ByteArrayOutputStream bytes, StringBuilder out, String uri, String where) {
        if (bytes.size() == 0) {
            return;
        }
        try {
            out.append(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes.toByteArray())));
        } catch (CharacterCodingException e) {
            throw ImportException.invalid(where + ": uri '" + quote(uri) + "' has percent-escapes that are not UTF-8");
        }
        bytes.reset();
    }
}
