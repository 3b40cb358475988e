package io.posekit;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.posekit.api.http.ApiRoutes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package rules of {@code docs/design.md}, checked on the compiled production classes (every reference in the
 * bytecode counts: fields, signatures, calls, annotations, throws clauses).
 *
 * <ul>
 *   <li>The core ({@code math}, {@code rig}, {@code clip}, {@code skinning}, {@code sampling}, {@code asset..},
 *       {@code bake}, {@code export}, {@code retarget}, {@code render}, {@code ik}, {@code motion}) is a library: no Spring, Servlet, Micrometer,
 *       logging facade or OpenAPI annotations, and none of the service packages ({@code store}, {@code config},
 *       {@code api}).</li>
 *   <li>Inside the core each package uses only those below it: {@code math}, {@code rig} and {@code clip} nothing of
 *       posekit; {@code skinning} math and rig; {@code sampling} those and clip and skinning; {@code asset} those;
 *       {@code bake} and {@code export} everything of the core; {@code retarget} math, rig, clip, sampling and
 *       asset; {@code render} {@code asset} and what is below it; {@code ik} math, rig and sampling; {@code motion}
 *       math, rig, clip and sampling.</li>
 *   <li>{@code store} never uses {@code config} or {@code api}; {@code config} never uses {@code api}; nothing
 *       outside {@code api} uses it.</li>
 *   <li>Inside {@code api}: the sub-packages ({@code body}, {@code http}, {@code json}, {@code docs}, {@code ops})
 *       never use the controllers' package; {@code json} uses nothing else of the api; controllers are package-private.</li>
 *   <li>No cycles between the top-level packages, nor between the api's sub-packages.</li>
 * </ul>
 */
class ArchitectureTest {

    private static final String[] CORE = {"io.posekit.math..", "io.posekit.rig..", "io.posekit.clip..",
        "io.posekit.skinning..", "io.posekit.sampling..", "io.posekit.asset..", "io.posekit.bake..",
        "io.posekit.export..", "io.posekit.retarget..", "io.posekit.render..", "io.posekit.ik..", "io.posekit.motion.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // without the code Spring's AOT processing generates at package time (Foo__BeanDefinitions, …): it wires the
        // beans as the configuration classes say, so the rules hold for what was written
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.matches(java.util.regex.Pattern.compile(".*__[A-Za-z]+\\.class$")))
                .importPackages("io.posekit");
    }

    @Test
    void theCoreIsALibrary() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "jakarta..",
                        "io.micrometer..", "org.slf4j..", "io.swagger..", "org.springdoc..", "io.posekit.store..",
                        "io.posekit.config..", "io.posekit.api..")
                .because("the core can be used as a library without the service")
                .check(classes);
        // the Draco decoder (Google's, as WebAssembly compiled to classes, on Chicory's runtime) is seen by its adapter
        // alone (with the host imports both modules share, EmscriptenHost), which bounds its memory and time and turns
        // every failure of it into an ImportException
        noClasses().that().doNotHaveFullyQualifiedName("io.posekit.asset.gltf.DracoDecoder")
                .and().doNotHaveFullyQualifiedName("io.posekit.asset.gltf.EmscriptenHost")
                .and().resideOutsideOfPackage("io.posekit.asset.gltf.draco..")
                .and().doNotHaveFullyQualifiedName("io.posekit.export.DracoEncoder")
                .and().resideOutsideOfPackage("io.posekit.export.draco..")
                .should().dependOnClassesThat().resideInAnyPackage("com.dylibso.chicory..",
                        "io.posekit.asset.gltf.draco..")
                .because("DracoDecoder bounds and guards every call into the decoder")
                .check(classes);
        // and the Draco encoder (Google's, the same way) by its adapter alone
        noClasses().that().doNotHaveFullyQualifiedName("io.posekit.export.DracoEncoder")
                .and().resideOutsideOfPackage("io.posekit.export.draco..")
                .and().doNotHaveFullyQualifiedName("io.posekit.asset.gltf.DracoDecoder")
                .and().doNotHaveFullyQualifiedName("io.posekit.asset.gltf.EmscriptenHost")
                .and().resideOutsideOfPackage("io.posekit.asset.gltf.draco..")
                .should().dependOnClassesThat().resideInAnyPackage("com.dylibso.chicory..", "io.posekit.export.draco..")
                .because("DracoEncoder bounds and guards every call into the encoder")
                .check(classes);
        // the warm-up drives the core and the API from outside, as a client would: no Spring either
        noClasses().that().resideInAPackage("io.posekit.warmup..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "jakarta..",
                        "io.micrometer..", "org.slf4j..", "io.posekit.store..", "io.posekit.config..", "io.posekit.api..")
                .check(classes);
    }

    @Test
    void theCorePackagesUseOnlyThoseBelowThem() {
        onlyPosekit("io.posekit.math..").check(classes);
        onlyPosekit("io.posekit.rig..").check(classes);
        onlyPosekit("io.posekit.clip..").check(classes);
        onlyPosekit("io.posekit.skinning..", "io.posekit.math..", "io.posekit.rig..").check(classes);
        onlyPosekit("io.posekit.sampling..", "io.posekit.math..", "io.posekit.rig..", "io.posekit.clip..",
                "io.posekit.skinning..").check(classes);
        onlyPosekit("io.posekit.asset..", "io.posekit.math..", "io.posekit.rig..", "io.posekit.clip..",
                "io.posekit.skinning..", "io.posekit.sampling..").check(classes);
        onlyPosekit("io.posekit.bake..", CORE).check(classes);
        onlyPosekit("io.posekit.export..", CORE).check(classes);
        onlyPosekit("io.posekit.retarget..", "io.posekit.math..", "io.posekit.rig..", "io.posekit.clip..",
                "io.posekit.sampling..", "io.posekit.asset..").check(classes);
        onlyPosekit("io.posekit.render..", "io.posekit.math..", "io.posekit.rig..", "io.posekit.clip..",
                "io.posekit.skinning..", "io.posekit.sampling..", "io.posekit.asset..").check(classes);
        onlyPosekit("io.posekit.ik..", "io.posekit.math..", "io.posekit.rig..", "io.posekit.sampling..").check(classes);
        onlyPosekit("io.posekit.motion..", "io.posekit.math..", "io.posekit.rig..", "io.posekit.clip..",
                "io.posekit.sampling..").check(classes);
    }

    @Test
    void theServicePackagesDependDownwardsOnly() {
        noClasses().that().resideInAPackage("io.posekit.store..")
                .should().dependOnClassesThat().resideInAnyPackage("io.posekit.config..", "io.posekit.api..")
                .check(classes);
        noClasses().that().resideInAPackage("io.posekit.config..")
                .should().dependOnClassesThat().resideInAPackage("io.posekit.api..")
                .check(classes);
        noClasses().that().resideOutsideOfPackage("io.posekit.api..")
                .should().dependOnClassesThat().resideInAPackage("io.posekit.api..")
                .check(classes);
    }

    @Test
    void theApiSubPackagesNeverUseTheControllers() {
        noClasses().that().resideInAnyPackage("io.posekit.api.body..", "io.posekit.api.http..", "io.posekit.api.json..",
                        "io.posekit.api.docs..", "io.posekit.api.ops..", "io.posekit.api.security..")
                .should().dependOnClassesThat().resideInAPackage("io.posekit.api")
                .check(classes);
        // security is below the server: the API server asks it, and Spring Security's chain uses it
        noClasses().that().resideInAPackage("io.posekit.api.security..")
                .should().dependOnClassesThat().resideInAnyPackage("io.posekit.api.body..", "io.posekit.api.http..",
                        "io.posekit.api.json..", "io.posekit.api.docs..", "io.posekit.api.ops..")
                .check(classes);
        noClasses().that().resideInAPackage("io.posekit.api.json..")
                .should().dependOnClassesThat().resideInAnyPackage("io.posekit.api.body..", "io.posekit.api.http..",
                        "io.posekit.api.docs..", "io.posekit.api.ops..")
                .check(classes);
        classes().that().implement(ApiRoutes.class)
                .should().resideInAnyPackage("io.posekit.api", "io.posekit.api.docs", "io.posekit.api.ops")
                .andShould().notBePublic()
                .check(classes);
    }

    @Test
    void theApiServerAloneSpeaksHttp() {
        // one way to serve a route: ApiServer on Reactor Netty; no Spring web controllers beside it
        noClasses().that().resideOutsideOfPackage("io.posekit.api.http..")
                .should().dependOnClassesThat().resideInAnyPackage("reactor.netty..", "io.netty.handler..")
                .check(classes);
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.springframework.web.bind.annotation..",
                        "org.springframework.web.servlet..", "jakarta.servlet..")
                .check(classes);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.posekit.(*)..").should().beFreeOfCycles().check(classes);
        slices().matching("io.posekit.api.(*)..").should().beFreeOfCycles().check(classes);
    }

    /** Classes in {@code pkg} may use posekit only in their own package tree and in {@code allowed}. */
    private static ArchRule onlyPosekit(String pkg, String... allowed) {
        String[] ok = new String[allowed.length + 2];
        ok[0] = pkg;
        ok[1] = "java..";
        System.arraycopy(allowed, 0, ok, 2, allowed.length);
        return noClasses().that().resideInAPackage(pkg)
                .should().dependOnClassesThat(DescribedPredicate.and(resideInAPackage("io.posekit.."),
                        resideOutsideOfPackages(ok)));
    }
}
