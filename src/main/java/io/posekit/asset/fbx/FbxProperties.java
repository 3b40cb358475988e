package io.posekit.asset.fbx;

import io.posekit.asset.ImportException;

/**
 * The {@code Properties70} of one object, with its type's template behind it: a property the object does not set
 * itself takes the template's value, and one neither sets the caller's default — FBX's own rule (a Model without
 * {@code InheritType} inherits the {@code FbxNode} template's, usually 0).
 *
 * <p>A property record is {@code P: "name", "type", "label", "flags", value…}; its values start at index 4. Numbers
 * come from any numeric property type; a record with fewer values than asked for, or with a value of the wrong kind,
 * is invalid (422) with the object and the property named.
 */
final class FbxProperties {

    private final FbxNode own;
    private final FbxNode template;
    private final String owner;

    /**
     * @param own the object's {@code Properties70}, or {@code null}
     * @param template the template's {@code Properties70}, or {@code null}
     * @param owner how messages name the object, e.g. {@code Model 'Bone'}
     */
    FbxProperties(FbxNode own, FbxNode template, String owner) {
        this.own = own;
        this.template = template;
        this.owner = owner;
    }

    /** The property record called {@code name} in the object itself, else in the template, else {@code null}. */
    FbxNode find(String name) {
        FbxNode p = find(own, name);
        return p != null ? p : find(template, name);
    }

    /** Whether the object itself (not its template) sets {@code name}. */
    boolean setsOwn(String name) {
        return find(own, name) != null;
    }

    private static FbxNode find(FbxNode properties, String name) {
        if (properties == null) {
            return null;
        }
        for (FbxNode p : properties.children()) {
            if (p.name().equals("P") && !p.properties().isEmpty() && name.equals(p.property(0))) {
                return p;
            }
        }
        return null;
    }

    /** The single number of {@code name}, or {@code dflt}. */
    double number(String name, double dflt) {
        FbxNode p = find(name);
        if (p == null) {
            return dflt;
        }
        require(p, name, 1);
        return value(p, name, 4);
    }

    /** The integer of {@code name} (an enum, a bool, a KTime), or {@code dflt}. */
    long integer(String name, long dflt) {
        FbxNode p = find(name);
        if (p == null) {
            return dflt;
        }
        require(p, name, 1);
        Object v = p.property(4);
        if (v instanceof Double d && d != Math.rint(d) || v instanceof Float || v instanceof String) {
            throw ImportException.invalid(owner + ": property '" + FbxScene.display(name) + "' is " + v
                    + ", not an integer");
        }
        return p.integer(4);
    }

    /** The three numbers of {@code name} (a vector such as {@code Lcl Translation}), or a copy of {@code dflt}. */
    double[] vector(String name, double[] dflt) {
        FbxNode p = find(name);
        if (p == null) {
            return dflt.clone();
        }
        require(p, name, 3);
        return new double[] {value(p, name, 4), value(p, name, 5), value(p, name, 6)};
    }

    /** The string of {@code name} (a {@code KString}), or {@code dflt} when absent or not a string. */
    String string(String name, String dflt) {
        FbxNode p = find(name);
        return p != null && p.properties().size() > 4 && p.property(4) instanceof String s ? s : dflt;
    }

    private void require(FbxNode p, String name, int values) {
        int have = p.properties().size() - 4;
        if (have < values) {
            throw ImportException.invalid(owner + ": property '" + FbxScene.display(name) + "' has "
                    + Math.max(0, have) + " value(s); " + values + " are needed");
        }
    }

    private double value(FbxNode p, String name, int index) {
        Object v = p.property(index);
        if (v instanceof String || v instanceof byte[]) {
            throw ImportException.invalid(owner + ": property '" + FbxScene.display(name) + "' value " + (index - 4)
                    + " is not a number");
        }
        double d = p.number(index);
        if (!Double.isFinite(d)) {
            throw ImportException.invalid(owner + ": property '" + FbxScene.display(name) + "' is not finite (" + d + ")");
        }
        return d;
    }
}
