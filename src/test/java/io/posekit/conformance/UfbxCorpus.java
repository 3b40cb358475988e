package io.posekit.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * ufbx's test corpus in {@code ../shared/realworld/ufbx} (the {@code posekit.ufbx.dir} property overrides it): its
 * FBX files, the authoring tools' OBJ exports, and the pairs ufbx's test sources ({@code test/*.h}) check, built as
 * ufbx's runner builds them:
 * <ul>
 *   <li>{@code UFBXT_FILE_TEST(name)} (and {@code _FLAGS}) loads every {@code data/name_<version>_<ascii|binary>.fbx}
 *       and, when {@code data/name.obj} exists, compares the scene as loaded with it (a <b>rest</b> pair) — unless the
 *       flags say {@code DIFF_EXPECT_FAIL} (every version) or {@code DIFF_EXPECT_FAIL_POST_7000}, which ufbx keeps as
 *       expected failures and so does this suite; {@code DIFF_SCALE_100} scales the FBX positions by 100;</li>
 *   <li>{@code _SUFFIX(name, s)} loads {@code name_<version>_<format>_s.fbx}, {@code _ALT(name, file)} the files of
 *       {@code file}: alternatives, compared at rest only with {@code DIFF_ALWAYS};</li>
 *   <li>in a test's body, each {@code ufbxt_check_frame(scene, err, normals, "obj", anim, time)} is a <b>frame</b>
 *       pair: that OBJ against the scene evaluated at scene time {@code time} of the stack whose name contains
 *       {@code anim} (else the default stack);</li>
 *   <li>tests with {@code _OPTS} load with ufbx options posekit has no equivalent of (geometry transform helpers,
 *       unit and axis conversion, …) and are counted, not compared; {@code ufbxt_check_frame_imp} calls (scaled or
 *       axis-converted comparisons) likewise.</li>
 * </ul>
 */
final class UfbxCorpus {

    private static final Pattern TEST = Pattern.compile("(?m)^(UFBXT_FILE_TEST\\w*)\\(([^)]*)\\)");
    private static final Pattern CHECK_FRAME = Pattern.compile("ufbxt_check_frame\\(\\s*scene\\s*,\\s*err\\s*,\\s*"
            + "(true|false)\\s*,\\s*\"([^\"]+)\"\\s*,\\s*(NULL|\"([^\"]*)\")\\s*,\\s*([^)]+)\\)");
    private static final Pattern FILE = Pattern.compile("(.+)_(\\d{4})_(ascii|binary)(?:_(\\w+))?\\.fbx");
    private static final Pattern VERSIONED = Pattern.compile("(.+)_(\\d{4})_(ascii|binary)");

    /**
     * One comparison.
     *
     * @param fbx the FBX file
     * @param obj the OBJ it is compared with
     * @param anim the stack name fragment ({@code null}: the default stack), for frame pairs
     * @param sceneTime seconds of scene time, or {@code NaN} for a rest pair (the scene as loaded)
     * @param scale the factor on the FBX positions (100 for {@code DIFF_SCALE_100}, else 1)
     * @param expectedFailure why ufbx expects this pair to fail, or {@code null}
     * @param test the ufbx test it comes from
     */
    record Pair(Path fbx, Path obj, String anim, double sceneTime, double scale, String expectedFailure, String test) {

        boolean rest() {
            return Double.isNaN(sceneTime);
        }

        /** A stable name: {@code file.fbx @ obj} or {@code file.fbx @ obj [anim, t s]}. */
        String id() {
            return fbx.getFileName() + " @ " + obj.getFileName().toString().replace(".obj", "")
                    + (rest() ? "" : String.format(java.util.Locale.ROOT, " [%s, %.4f s]", anim == null ? "default" : anim,
                    sceneTime));
        }
    }

    /** What the test sources give. */
    record Pairs(List<Pair> pairs, int optionTests, int scaledFrameChecks) {
    }

    private UfbxCorpus() {
    }

    static Path root() {
        return Path.of(System.getProperty("posekit.ufbx.dir", "../shared/realworld/ufbx")).toAbsolutePath().normalize();
    }

    static boolean available() {
        return Files.isDirectory(root().resolve("data")) && Files.isDirectory(root().resolve("test"));
    }

    /** Every {@code .fbx} under {@code data/} (the fuzz cases too), sorted. */
    static List<Path> allFbx() {
        try (Stream<Path> files = Files.walk(root().resolve("data"))) {
            return files.filter(p -> p.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".fbx"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The exporter a file name starts with ({@code maya}, {@code max}, {@code blender}, …). */
    static String exporter(Path fbx) {
        String name = fbx.getFileName().toString();
        int cut = name.indexOf('_');
        String first = cut < 0 ? name : name.substring(0, cut);
        return first.replaceAll("\\d+$", "");
    }

    /** The FBX version a file name states, or 0. */
    static int version(Path fbx) {
        Matcher m = FILE.matcher(fbx.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(2)) : 0;
    }

    /** The pairs of the test sources, over the files present. */
    static Pairs pairs() {
        Path data = root().resolve("data");
        // base name (and suffix) → files present
        Map<String, List<Path>> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(data)) {
            for (Path p : list.sorted().toList()) {
                Matcher m = FILE.matcher(p.getFileName().toString());
                if (m.matches()) {
                    files.computeIfAbsent(m.group(1) + (m.group(4) == null ? "" : "#" + m.group(4)),
                            k -> new ArrayList<>()).add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Pair> out = new ArrayList<>();
        int optionTests = 0;
        int scaled = 0;
        try (Stream<Path> sources = Files.list(root().resolve("test"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".h")).sorted().toList()) {
                String text = Files.readString(source);
                Matcher t = TEST.matcher(text);
                List<int[]> spans = new ArrayList<>();
                List<String[]> heads = new ArrayList<>();
                while (t.find()) {
                    spans.add(new int[] {t.start(), t.end()});
                    heads.add(new String[] {t.group(1), t.group(2)});
                }
                for (int i = 0; i < spans.size(); i++) {
                    String macro = heads.get(i)[0];
                    String[] args = heads.get(i)[1].trim().split("\\s*,\\s*");
                    String body = text.substring(spans.get(i)[1], i + 1 < spans.size() ? spans.get(i + 1)[0] : text.length());
                    if (macro.contains("OPTS")) {
                        optionTests++;
                        continue;
                    }
                    if (macro.contains("PATH")) {
                        continue; // a path outside data/'s naming
                    }
                    scaled += count(body, "ufbxt_check_frame_imp(");
                    String test = args[0].trim();
                    String base;
                    String suffix = null;
                    boolean alternative;
                    String flags;
                    if (macro.startsWith("UFBXT_FILE_TEST_ALT_SUFFIX")) {
                        base = args[1];
                        suffix = args[2];
                        alternative = true;
                        flags = args.length > 3 ? args[3] : "";
                    } else if (macro.startsWith("UFBXT_FILE_TEST_ALT")) {
                        base = args[1];
                        alternative = true;
                        flags = args.length > 2 ? args[2] : "";
                    } else if (macro.startsWith("UFBXT_FILE_TEST_SUFFIX")) {
                        base = args[0];
                        suffix = args[1];
                        alternative = true;
                        flags = args.length > 2 ? args[2] : "";
                    } else {
                        base = args[0];
                        alternative = false;
                        flags = args.length > 1 ? args[1] : "";
                    }
                    String objBase = base;
                    List<Path> fbx;
                    Matcher versioned = VERSIONED.matcher(base);
                    if (versioned.matches()) {
                        objBase = versioned.group(1);
                        Path only = data.resolve(base + (suffix == null ? "" : "_" + suffix) + ".fbx");
                        fbx = Files.exists(only) ? List.of(only) : List.of();
                    } else {
                        fbx = files.getOrDefault(base + (suffix == null ? "" : "#" + suffix), List.of());
                    }
                    boolean expectFail = flags.contains("DIFF_EXPECT_FAIL") && !flags.contains("POST_7000");
                    boolean expectFailPost7000 = flags.contains("DIFF_EXPECT_FAIL_POST_7000");
                    double scale = flags.contains("DIFF_SCALE_100") ? 100 : 1;
                    Path restObj = data.resolve(objBase + ".obj");
                    for (Path f : fbx) {
                        String expected = expectFail ? "ufbx expects the diff to fail (DIFF_EXPECT_FAIL)"
                                : expectFailPost7000 && version(f) >= 7000
                                        ? "ufbx expects the diff to fail from 7000 (DIFF_EXPECT_FAIL_POST_7000)" : null;
                        if ((!alternative || flags.contains("DIFF_ALWAYS")) && Files.exists(restObj)) {
                            out.add(new Pair(f, restObj, null, Double.NaN, scale, expected, test));
                        }
                        Matcher c = CHECK_FRAME.matcher(body);
                        while (c.find()) {
                            Path obj = data.resolve(c.group(2) + ".obj");
                            if (Files.exists(obj)) {
                                out.add(new Pair(f, obj, c.group(4), time(c.group(5)), 1, null, test));
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Pairs(out, optionTests, scaled);
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    /** A time as the sources write it: {@code 10.0/24.0}, {@code 0.0}. */
    private static double time(String expression) {
        String[] parts = expression.trim().split("\\s*/\\s*");
        double v = Double.parseDouble(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            v /= Double.parseDouble(parts[i]);
        }
        return v;
    }
}
