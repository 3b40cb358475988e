package io.posekit.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The project's Markdown documentation holds together: README.md, every {@code docs/*.md} page and every
 * {@code deploy/**}{@code /README.md}. Every relative link and image points at a file that exists (relative to the
 * linking file), and every {@code #anchor} into a Markdown file (or into the same file) names a heading of it, with
 * GitHub's anchor rules. README.md stays within 15 KiB and links to every page of {@code docs/}.
 *
 * <p>Links inside fenced code blocks and inline code spans are not links and are skipped, as are absolute
 * ({@code http:}, {@code https:}, {@code mailto:}) ones. Runs with the project directory as working directory.
 */
class DocumentationLinksTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final long README_MAX_BYTES = 15 * 1024;

    /** An inline link or image: {@code [text](target)} or {@code [text](target "title")}; the text is not needed. */
    private static final Pattern INLINE = Pattern.compile("\\]\\(\\s*(<[^>\\n]*>|[^)\\s]+)(?:\\s+(?:\"[^\"]*\"|'[^']*'))?\\s*\\)");
    /** A reference definition: {@code [label]: target}. */
    private static final Pattern REFERENCE = Pattern.compile("(?m)^ {0,3}\\[[^\\]\\n]+\\]:[ \\t]*(<[^>\\n]*>|\\S+)");
    /** An HTML link or image. */
    private static final Pattern HTML = Pattern.compile("<(?:a|img)\\b[^>]*?\\b(?:href|src)\\s*=\\s*\"([^\"]*)\"",
            Pattern.CASE_INSENSITIVE);
    /** An explicit HTML anchor: {@code <a name="x">} or any element with {@code id="x"}. */
    private static final Pattern HTML_ANCHOR = Pattern.compile("<[a-z][^>]*?\\b(?:name|id)\\s*=\\s*\"([^\"]+)\"",
            Pattern.CASE_INSENSITIVE);
    /** An ATX heading; group 1 is its text, without the closing run of {@code #}. */
    private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})(.*)$");

    /** A link found in a file: where it is and what it points at. */
    record Link(Path file, int line, String target) {

        String where() {
            return ROOT.relativize(file) + ":" + line + " → " + target;
        }
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        List<Path> files = documentationFiles();
        assertThat(files).as("documentation files").contains(ROOT.resolve("README.md"));
        List<Link> links = new ArrayList<>();
        for (Path file : files) {
            links.addAll(links(file));
        }
        // the checker must see the links there are, or it would pass on anything
        assertThat(links).as("links found in %s", files).hasSizeGreaterThan(20);
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Link link : links) {
            String problem = problem(link, anchors);
            if (problem != null) {
                broken.add(link.where() + " (" + problem + ")");
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void readmeIsShortAndLinksToEveryDocsPage() throws IOException {
        Path readme = ROOT.resolve("README.md");
        assertThat(Files.size(readme)).as("README.md bytes").isLessThanOrEqualTo(README_MAX_BYTES);
        Set<Path> linked = new TreeSet<>();
        for (Link link : links(readme)) {
            Path target = resolve(link);
            if (target != null) {
                linked.add(target);
            }
        }
        List<Path> pages = docsPages();
        assertThat(pages).as("docs/*.md").isNotEmpty();
        assertThat(linked).as("pages README.md links to").containsAll(pages);
    }

    @Test
    void slugsFollowGitHubsRules() {
        assertThat(slugs("glTF 2.0 support")).containsExactly("gltf-20-support");
        assertThat(slugs("Service (HTTP, side by side with the peer)"))
                .containsExactly("service-http-side-by-side-with-the-peer");
        assertThat(slugs("`Posekit-Layout` header")).containsExactly("posekit-layout-header");
        assertThat(slugs("DirectX .x support")).containsExactly("directx-x-support");
        assertThat(slugs("Walk-through (curl)")).containsExactly("walk-through-curl");
        assertThat(slugs("Core (JMH, one thread unless said)")).containsExactly("core-jmh-one-thread-unless-said");
        assertThat(slugs("**Bold**, _emphasis_ and [a link](api.md#x) with `snake_case`"))
                .containsExactly("bold-emphasis-and-a-link-with-snake_case");
        assertThat(slugs("Pose ≤ 30 ns/joint — 2× faster")).containsExactly("pose--30-nsjoint--2-faster");
        assertThat(slugs("Über Größe")).containsExactly("über-größe");
        assertThat(slugs("Limits", "Limits", "Limits-1", "Limits")).containsExactly("limits", "limits-1", "limits-1-1",
                "limits-2");
    }

    @Test
    void linksInCodeAreNotLinksAndAnchorsComeFromHeadingsOutsideCode() {
        String text = """
                # Title

                See [a](a.md) and `[not](code.md)` and ``[neither](x.md)`` but ![img](i.png "t").
                A `span that
                goes on [no](span.md)` here.

                ```sh
                # not a heading
                curl [no](fence.md)
                ```
                [ref]: ref.md#part
                <a href="html.md">x</a>
                ## Second `heading`
                """;
        assertThat(links(Path.of("x.md"), text)).extracting(Link::target, Link::line)
                .containsExactly(tuple("a.md", 3),
                        tuple("i.png", 3),
                        tuple("ref.md#part", 11),
                        tuple("html.md", 12));
        assertThat(anchors(text)).containsExactly("title", "second-heading");
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** README.md, docs/*.md and deploy/**&#47;README.md. */
    private static List<Path> documentationFiles() {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        files.addAll(docsPages());
        Path deploy = ROOT.resolve("deploy");
        if (Files.isDirectory(deploy)) {
            try (Stream<Path> walk = Files.walk(deploy)) {
                walk.filter(p -> p.getFileName().toString().equals("README.md")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    private static List<Path> docsPages() {
        Path docs = ROOT.resolve("docs");
        if (!Files.isDirectory(docs)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(docs)) {
            return list.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Link> links(Path file) {
        return links(file, read(file));
    }

    /** The links of a Markdown text, outside fenced code blocks and code spans, in order. */
    static List<Link> links(Path file, String markdown) {
        String text = withoutCode(markdown);
        List<Link> found = new ArrayList<>();
        for (Pattern pattern : List.of(INLINE, REFERENCE, HTML)) {
            Matcher m = pattern.matcher(text);
            while (m.find()) {
                String target = m.group(1).trim();
                if (target.startsWith("<") && target.endsWith(">")) {
                    target = target.substring(1, target.length() - 1);
                }
                found.add(new Link(file, lineOf(text, m.start(1)), target));
            }
        }
        found.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return found;
    }

    /** What is wrong with a link, or null when it resolves. */
    private static String problem(Link link, Map<Path, Set<String>> anchors) {
        String target = link.target();
        if (isAbsolute(target)) {
            return null;
        }
        if (target.isEmpty()) {
            return "empty target";
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file = path.isEmpty() ? link.file() : resolve(link);
        if (file == null) {
            return "not a file path";
        }
        if (!Files.exists(file)) {
            return "no such file: " + ROOT.relativize(file);
        }
        if (anchor == null || !file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".md")) {
            return null;
        }
        if (anchor.isEmpty()) {
            return "empty anchor";
        }
        Set<String> known = anchors.computeIfAbsent(file, f -> anchors(read(f)));
        String wanted = URLDecoder.decode(anchor, StandardCharsets.UTF_8);
        if (!known.contains(wanted)) {
            return "no heading in " + ROOT.relativize(file) + " has the anchor #" + wanted;
        }
        return null;
    }

    private static boolean isAbsolute(String target) {
        String t = target.toLowerCase(Locale.ROOT);
        return t.startsWith("http://") || t.startsWith("https://") || t.startsWith("mailto:");
    }

    /** The file a relative link points at (without its anchor), or null when it is not a file path. */
    private static Path resolve(Link link) {
        String target = link.target();
        if (isAbsolute(target)) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        if (path.isEmpty()) {
            return link.file().normalize();
        }
        if (path.contains(":")) {
            return null;
        }
        String decoded = URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
        Path base = decoded.startsWith("/") ? ROOT : link.file().getParent();
        return base.resolve(decoded.startsWith("/") ? decoded.substring(1) : decoded).normalize();
    }

    /** The anchors a Markdown text defines: its headings' slugs (outside fenced code) and explicit HTML anchors. */
    static Set<String> anchors(String markdown) {
        List<String> headings = new ArrayList<>();
        for (String line : withoutFences(markdown).split("\n", -1)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                headings.add(m.group(1) == null ? "" : m.group(1));
            }
        }
        Set<String> anchors = new LinkedHashSet<>(slugs(headings.toArray(String[]::new)));
        Matcher html = HTML_ANCHOR.matcher(withoutCode(markdown));
        while (html.find()) {
            anchors.add(html.group(1));
        }
        return anchors;
    }

    /**
     * GitHub's anchors for headings in document order (github-slugger): the heading's text without its inline markup,
     * lower-cased, everything but letters, marks, digits, connector punctuation (such as {@code _}), spaces and
     * hyphens removed, spaces turned into hyphens; a repeated slug gets {@code -1}, {@code -2}… until it is new.
     */
    static List<String> slugs(String... headings) {
        Map<String, Integer> seen = new HashMap<>();
        List<String> slugs = new ArrayList<>();
        for (String heading : headings) {
            String base = plainText(heading).toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{M}\\p{Nd}\\p{Nl}\\p{No}\\p{Pc} \\-]", "")
                    .replace(' ', '-');
            String slug = base;
            while (seen.containsKey(slug)) {
                int n = seen.merge(base, 1, Integer::sum);
                slug = base + "-" + n;
            }
            seen.put(slug, 0);
            slugs.add(slug);
        }
        return slugs;
    }

    /** The text a heading renders: code spans' contents, link and image texts, without emphasis or HTML tags. */
    static String plainText(String heading) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < heading.length()) {
            char c = heading.charAt(i);
            if (c == '`') {
                int run = runLength(heading, i, '`');
                int close = closingRun(heading, i + run, run);
                if (close >= 0) {
                    String code = heading.substring(i + run, close);
                    if (code.length() > 2 && code.startsWith(" ") && code.endsWith(" ") && !code.isBlank()) {
                        code = code.substring(1, code.length() - 1);
                    }
                    out.append('\u0000').append(code).append('\u0001');
                    i = close + run;
                    continue;
                }
                out.append(heading, i, i + run);
                i += run;
                continue;
            }
            out.append(c);
            i++;
        }
        String text = out.toString();
        // outside code: images and links keep their text, HTML tags go, emphasis markers go
        StringBuilder plain = new StringBuilder();
        for (String part : text.split("(?=\u0000)|(?<=\u0001)")) {
            if (part.startsWith("\u0000")) {
                plain.append(part, 1, part.length() - 1);
                continue;
            }
            String p = part
                    .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                    .replaceAll("!?\\[([^\\]]*)\\]\\[[^\\]]*\\]", "$1")
                    .replaceAll("<[^>]+>", "")
                    .replace("*", "")
                    .replaceAll("(?<![\\p{L}\\p{N}])_+|_+(?![\\p{L}\\p{N}])", "")
                    .replace("\\", "");
            plain.append(p);
        }
        return plain.toString().strip();
    }

    /** The text with fenced code blocks blanked (their lines kept, empty). */
    static String withoutFences(String markdown) {
        String[] lines = markdown.split("\n", -1);
        StringBuilder out = new StringBuilder();
        String fence = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            Matcher m = FENCE.matcher(line);
            if (fence == null) {
                if (m.matches() && !(m.group(1).charAt(0) == '`' && m.group(2).contains("`"))) {
                    fence = m.group(1);
                    line = "";
                }
            } else {
                if (m.matches() && m.group(1).charAt(0) == fence.charAt(0) && m.group(1).length() >= fence.length()
                        && m.group(2).isBlank()) {
                    fence = null;
                }
                line = "";
            }
            out.append(line);
            if (i < lines.length - 1) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    /**
     * The text with fenced code blocks and code spans blanked: a span's characters become spaces (its line breaks
     * stay), so offsets and line numbers are those of the original. Spans may run over several lines, not over a
     * blank line.
     */
    static String withoutCode(String markdown) {
        char[] text = withoutFences(markdown).toCharArray();
        String s = new String(text);
        int i = 0;
        while (i < text.length) {
            if (text[i] == '\\' && i + 1 < text.length) {
                i += 2;
                continue;
            }
            if (text[i] != '`') {
                i++;
                continue;
            }
            int run = runLength(s, i, '`');
            int close = closingRun(s, i + run, run);
            int paragraphEnd = s.indexOf("\n\n", i);
            if (close < 0 || (paragraphEnd >= 0 && close > paragraphEnd)) {
                i += run;
                continue;
            }
            for (int k = i; k < close + run; k++) {
                if (text[k] != '\n') {
                    text[k] = ' ';
                }
            }
            i = close + run;
        }
        return new String(text);
    }

    private static int runLength(String s, int from, char c) {
        int n = 0;
        while (from + n < s.length() && s.charAt(from + n) == c) {
            n++;
        }
        return n;
    }

    /** Where the next run of exactly {@code run} backticks starts at or after {@code from}, or -1. */
    private static int closingRun(String s, int from, int run) {
        int i = from;
        while (i < s.length()) {
            if (s.charAt(i) == '`') {
                int n = runLength(s, i, '`');
                if (n == run) {
                    return i;
                }
                i += n;
            } else {
                i++;
            }
        }
        return -1;
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
