package io.posekit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core (everything but {@code api}, {@code store} and {@code config}) is a library: no class in it may
 * refer to Spring, the Servlet API, or the service packages. Checked on the compiled classes' constant pools
 * (every class reference and type descriptor), so fully qualified uses and annotations count too.
 */
class CoreIndependenceTest {

    private static final List<String> CORE = List.of("asset", "rig", "clip", "sampling", "skinning", "math", "export");
    private static final List<String> FORBIDDEN = List.of("org/springframework/", "jakarta/servlet/",
            "io/posekit/api/", "io/posekit/store/", "io/posekit/config/");

    @Test
    void coreClassesReferNeitherToSpringNorToTheServicePackages() throws IOException {
        Path classes = Path.of("target/classes/io/posekit");
        List<String> violations = new ArrayList<>();
        int checked = 0;
        for (String pkg : CORE) {
            Path dir = classes.resolve(pkg);
            assertThat(dir).as("compiled core package %s", pkg).isDirectory();
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    checked++;
                    ClassModel model = ClassFile.of().parse(file);
                    for (PoolEntry entry : model.constantPool()) {
                        String text = switch (entry) {
                            case ClassEntry c -> c.asInternalName();
                            case Utf8Entry u -> u.stringValue();
                            default -> null;
                        };
                        if (text != null) {
                            for (String forbidden : FORBIDDEN) {
                                if (text.contains(forbidden)) {
                                    violations.add(model.thisClass().asInternalName() + " -> " + text);
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(checked).as("core classes checked").isGreaterThan(20);
        assertThat(violations).as("core classes referring to Spring or service packages").isEmpty();
    }
}
