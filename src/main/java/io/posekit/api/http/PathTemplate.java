package io.posekit.api.http;

import java.util.ArrayList;
import java.util.List;

/**
 * A route's path, e.g. {@code /api/v1/assets/{id}/skins/{skin}/matrices}: literal segments and whole-segment
 * variables. A variable matches one non-empty segment; its value is percent-decoded.
 *
 * @param text the template as written (also the {@code uri} tag of the request metrics)
 * @param segments each segment: the literal, or {@code null} for a variable
 * @param variables the variables' names, in order
 */
public record PathTemplate(String text, List<String> segments, List<String> variables) {

    /** @throws IllegalArgumentException for a template that does not start with '/' or has an empty segment */
    public static PathTemplate of(String text) {
        if (!text.startsWith("/") || text.endsWith("/") || text.contains("//")) {
            throw new IllegalArgumentException("not a path template: " + text);
        }
        List<String> segments = new ArrayList<>();
        List<String> variables = new ArrayList<>();
        for (String s : text.substring(1).split("/")) {
            if (s.startsWith("{") && s.endsWith("}")) {
                segments.add(null);
                variables.add(s.substring(1, s.length() - 1));
            } else {
                segments.add(s);
            }
        }
        return new PathTemplate(text, java.util.Collections.unmodifiableList(segments), List.copyOf(variables));
    }

    int variableIndex(String name) {
        int i = variables.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(text + " has no variable " + name);
        }
        return i;
    }

    /**
     * The variables' raw (still percent-encoded) values when {@code path}'s segments match, else {@code null}.
     *
     * @param parts the request path split at '/', without the leading empty part
     */
    String[] match(String[] parts) {
        if (parts.length != segments.size()) {
            return null;
        }
        String[] values = new String[variables.size()];
        int v = 0;
        for (int i = 0; i < parts.length; i++) {
            String literal = segments.get(i);
            if (literal == null) {
                if (parts[i].isEmpty() || !plainSegment(parts[i])) {
                    return null;
                }
                values[v++] = parts[i];
            } else if (!literal.equals(parts[i])) {
                return null;
            }
        }
        return values;
    }

    /**
     * Whether a raw segment stays one segment once decoded: not a dot segment ({@code .}, {@code ..}, also
     * percent-encoded) and no separator ({@code /} or {@code \}, also encoded) inside. A variable that is not plain
     * matches nothing (404): a handler never sees a value that a later path resolution could climb with.
     */
    static boolean plainSegment(String raw) {
        String s = raw;
        if (raw.indexOf('%') >= 0) {
            try {
                s = Exchange.decode(raw, 0, raw.length(), false);
            } catch (RuntimeException malformed) {
                return true; // not a dot segment nor a separator: the handler's decoding answers it (400)
            }
        }
        return !s.equals(".") && !s.equals("..") && s.indexOf('/') < 0 && s.indexOf('\\') < 0 && s.indexOf('\0') < 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
