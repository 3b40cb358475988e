package io.posekit.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The meshes of an authoring tool's OBJ export, as ufbx's test loader splits them: a new mesh at every {@code o} or
 * {@code g} line (named by the line's names), holding the positions its faces ({@code f}, three corners or more) use;
 * and ufbx's directives in comments: {@code ufbx:tolerance=} (default 0.001), {@code ufbx:position_scale=} (both
 * sides scaled before comparing) and whether Blender wrote it (its object names carry {@code _Mesh} suffixes).
 *
 * @param meshes the meshes with faces
 * @param tolerance the per-coordinate tolerance after scaling
 * @param positionScale the factor both sides are scaled by before comparing
 * @param blender whether the file says {@code www.blender.org}
 * @param noSubdivision whether the OBJ says {@code ufbx:no_subdivision}: it is the cage of a mesh the FBX displays
 *     smooth (ufbx's tests then compare the unsubdivided mesh)
 */
record ObjMeshes(List<Mesh> meshes, double tolerance, double positionScale, boolean blender, boolean noSubdivision) {

    /**
     * One mesh.
     *
     * @param names the names of its {@code o}/{@code g} line (empty before any)
     * @param positions 3 doubles per distinct position its faces use
     */
    record Mesh(List<String> names, double[] positions) {
    }

    static ObjMeshes read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        double tolerance = 0.001;
        double scale = 1;
        boolean blender = false;
        boolean noSubdivision = false;
        double[] v = new double[3 * 1024];
        int vn = 0;
        List<List<String>> names = new ArrayList<>();
        List<BitSet> used = new ArrayList<>();
        names.add(List.of());
        used.add(new BitSet());
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("#")) {
                String c = line.substring(1).strip();
                if (c.startsWith("ufbx:tolerance=")) {
                    tolerance = Double.parseDouble(c.substring(15));
                } else if (c.startsWith("ufbx:position_scale=")) {
                    scale = Double.parseDouble(c.substring(20));
                } else if (c.equals("ufbx:no_subdivision")) {
                    noSubdivision = true;
                } else if (c.equals("www.blender.org")) {
                    blender = true;
                } else if (c.contains("www.blender.org")) {
                    blender = true;
                }
                continue;
            }
            String[] w = line.split("\\s+");
            switch (w[0]) {
                case "v" -> {
                    if (3 * vn + 3 > v.length) {
                        v = java.util.Arrays.copyOf(v, v.length * 2);
                    }
                    for (int k = 0; k < 3; k++) {
                        v[3 * vn + k] = Double.parseDouble(w[1 + k]);
                    }
                    vn++;
                }
                case "o", "g" -> {
                    names.add(List.of(w).subList(1, w.length));
                    used.add(new BitSet());
                }
                case "f" -> {
                    if (w.length < 4) {
                        continue;
                    }
                    for (int k = 1; k < w.length; k++) {
                        String index = w[k];
                        int slash = index.indexOf('/');
                        int i = Integer.parseInt(slash < 0 ? index : index.substring(0, slash));
                        used.getLast().set(i < 0 ? vn + i : i - 1);
                    }
                }
                default -> {
                }
            }
        }
        List<Mesh> meshes = new ArrayList<>();
        for (int m = 0; m < names.size(); m++) {
            BitSet u = used.get(m);
            if (u.isEmpty()) {
                continue;
            }
            double[] p = new double[3 * u.cardinality()];
            int n = 0;
            for (int i = u.nextSetBit(0); i >= 0; i = u.nextSetBit(i + 1)) {
                System.arraycopy(v, 3 * i, p, 3 * n++, 3);
            }
            meshes.add(new Mesh(names.get(m), p));
        }
        return new ObjMeshes(meshes, tolerance, scale, blender, noSubdivision);
    }
}
