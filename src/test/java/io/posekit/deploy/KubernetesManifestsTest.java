package io.posekit.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Kubernetes manifests in {@code deploy/k8s}, checked offline: every object, as written and as kustomize
 * renders it, against the Kubernetes 1.27 API schemas (strictly: unknown fields, required fields, types, enums),
 * the test's kustomize renderer against committed kustomize output, and what the objects must say for posekit
 * (probe paths, port, settings the service reads, selectors, references, the router's hash key). The MinIO
 * example overlay ({@code deploy/k8s-minio}) is checked through its committed kustomize output.
 */
class KubernetesManifestsTest {

    private static final Path BASE = Path.of("deploy/k8s");
    private static final Path RENDERED = Path.of("src/test/resources/k8s-rendered/base.yaml");
    /** the MinIO example overlay, and kustomize's output for it (which the renderer does not reproduce) */
    private static final Path MINIO = Path.of("deploy/k8s-minio");
    private static final Path MINIO_RENDERED = Path.of("src/test/resources/k8s-rendered/minio.yaml");
    private static final String NAMESPACE = "posekit";
    private static final Map<String, String> COMMON_LABELS = Map.of("app.kubernetes.io/name", "posekit",
            "app.kubernetes.io/part-of", "posekit");
    private static final Map<String, String> SERVER_PODS = Map.of("app.kubernetes.io/name", "posekit",
            "app.kubernetes.io/component", "server");
    private static final Map<String, String> ROUTER_PODS = Map.of("app.kubernetes.io/name", "posekit",
            "app.kubernetes.io/component", "router");

    /** What the ConfigMap sets: exactly the settings posekit reads (the S3 store's and the JVM's). */
    private static final Map<String, String> SETTINGS = Map.ofEntries(
            Map.entry("POSEKIT_STORE_TYPE", "s3"),
            Map.entry("POSEKIT_STORE_S3_BUCKET", "posekit"),
            Map.entry("POSEKIT_STORE_S3_PREFIX", "assets/"),
            Map.entry("POSEKIT_STORE_S3_ENDPOINT", ""),
            Map.entry("POSEKIT_STORE_S3_REGION", "us-east-1"),
            Map.entry("POSEKIT_STORE_S3_PATH_STYLE", "true"),
            Map.entry("POSEKIT_STORE_REVALIDATE", "10s"),
            Map.entry("POSEKIT_CACHE_MAX_BYTES", "512MB"),
            Map.entry("POSEKIT_UPLOAD_MAX_BYTES", "256MB"),
            Map.entry("POSEKIT_HTTP_MAX_UPLOAD_BYTES_IN_FLIGHT", "256MB"),
            Map.entry("POSEKIT_HTTP_MAX_SPOOL_BYTES", "1536MB"),
            Map.entry("POSEKIT_SECURITY_API_KEYS_FILE", "/etc/posekit/keys/api-keys.txt"),
            Map.entry("POSEKIT_QUOTA_REQUESTS_PER_SECOND", "200"),
            Map.entry("POSEKIT_QUOTA_BURST", "400"),
            Map.entry("POSEKIT_CORS_ALLOWED_ORIGINS", ""),
            Map.entry("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -XX:G1PeriodicGCInterval=30000"));

    private static KubernetesSchema schema;
    private static JsonNode kustomization;
    /** the objects of each resource file, by its path in the kustomization */
    private static Map<String, List<ObjectNode>> sources;
    private static Map<String, ObjectNode> rendered;

    @BeforeAll
    static void load() throws IOException {
        schema = new KubernetesSchema();
        kustomization = Kustomize.YAML.readTree(BASE.resolve("kustomization.yaml").toFile());
        sources = new LinkedHashMap<>();
        for (JsonNode resource : kustomization.path("resources")) {
            sources.put(resource.asString(), Kustomize.readObjects(BASE.resolve(resource.asString())));
        }
        rendered = Kustomize.byKey(Kustomize.build(BASE));
    }

    // ---- the files and the kustomization

    @Test
    void everyFileOfTheBaseIsAResourceOrAGeneratorInput() throws IOException {
        Set<String> files = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(BASE)) {
            walk.filter(Files::isRegularFile)
                    .map(f -> BASE.relativize(f).toString().replace(File.separatorChar, '/'))
                    .forEach(files::add);
        }
        Set<String> listed = new TreeSet<>(sources.keySet());
        listed.addAll(List.of("kustomization.yaml", "README.md", "posekit.env", "s3-credentials.env",
                "router/nginx.conf", "api-keys.txt"));
        assertThat(files).isEqualTo(listed);
        assertThat(sources.keySet()).containsExactly("namespace.yaml", "serviceaccount.yaml", "deployment.yaml",
                "service.yaml", "service-headless.yaml", "hpa.yaml", "pdb.yaml", "router/serviceaccount.yaml",
                "router/deployment.yaml", "router/service.yaml", "router/pdb.yaml");
        // one object a file, so a file's name says what it holds
        sources.forEach((file, objects) -> assertThat(objects).as(file).hasSize(1));
    }

    @Test
    void kustomizationSetsNamespaceLabelsGeneratorsAndImages() {
        assertThat(kustomization.path("namespace").asString()).isEqualTo(NAMESPACE);
        JsonNode labels = kustomization.path("labels").get(0);
        assertThat(labels.path("pairs").propertyNames()).containsExactlyInAnyOrderElementsOf(COMMON_LABELS.keySet());
        COMMON_LABELS.forEach((k, v) -> assertThat(labels.path("pairs").path(k).asString()).isEqualTo(v));
        assertThat(labels.path("includeSelectors").asBoolean()).isFalse();
        assertThat(labels.path("includeTemplates").asBoolean()).isTrue();

        assertThat(generator("configMapGenerator", "posekit-config").path("envs").get(0).asString())
                .isEqualTo("posekit.env");
        assertThat(generator("configMapGenerator", "posekit-router-nginx").path("files").get(0).asString())
                .isEqualTo("router/nginx.conf");
        assertThat(generator("secretGenerator", "posekit-s3").path("envs").get(0).asString())
                .isEqualTo("s3-credentials.env");

        assertThat(image("posekit")).isEqualTo(Map.of("name", "posekit", "newName", "posekit", "newTag", "latest"));
        assertThat(image("nginx")).isEqualTo(Map.of("name", "nginx", "newName", "nginx", "newTag", "1.28-alpine"));
        // the Deployments name the image without a tag: kustomize's images: entry is the one place to change it
        assertThat(source("deployment.yaml").at("/spec/template/spec/containers/0/image").asString())
                .isEqualTo("posekit");
        assertThat(source("router/deployment.yaml").at("/spec/template/spec/containers/0/image").asString())
                .isEqualTo("nginx");
    }

    // ---- Kubernetes schemas

    @Test
    void everyManifestIsAValidKubernetesObject() {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        sources.forEach((file, objects) -> objects.forEach(o -> {
            List<String> e = schema.validate(o);
            if (!e.isEmpty()) {
                errors.put(file, e);
            }
        }));
        assertThat(errors).as("schema errors by file").isEmpty();
    }

    @Test
    void everyRenderedObjectIsAValidKubernetesObject() {
        assertThat(rendered.keySet()).containsExactlyInAnyOrder(
                "Namespace//posekit",
                "ServiceAccount/posekit/posekit", "ServiceAccount/posekit/posekit-router",
                "ConfigMap/posekit/" + generatedName("ConfigMap", "posekit-config"),
                "ConfigMap/posekit/" + generatedName("ConfigMap", "posekit-router-nginx"),
                "Secret/posekit/" + generatedName("Secret", "posekit-api-keys"),
                "Secret/posekit/" + generatedName("Secret", "posekit-s3"),
                "Deployment/posekit/posekit", "Deployment/posekit/posekit-router",
                "Service/posekit/posekit", "Service/posekit/posekit-headless", "Service/posekit/posekit-router",
                "HorizontalPodAutoscaler/posekit/posekit",
                "PodDisruptionBudget/posekit/posekit", "PodDisruptionBudget/posekit/posekit-router");
        Map<String, List<String>> errors = new LinkedHashMap<>();
        rendered.forEach((key, o) -> {
            List<String> e = schema.validate(o);
            if (!e.isEmpty()) {
                errors.put(key, e);
            }
        });
        assertThat(errors).as("schema errors by object").isEmpty();
    }

    /** The schemas catch what kubectl's strict field validation would, so the two tests above can fail. */
    @Test
    void schemaRejectsUnknownFieldsMissingFieldsWrongTypesAndValuesOutsideEnums() {
        ObjectNode deployment = source("deployment.yaml").deepCopy();
        ObjectNode container = (ObjectNode) deployment.at("/spec/template/spec/containers/0");
        container.put("imagePullPolcy", "Always");
        ((ObjectNode) container.get("ports").get(0)).put("containerPort", "8080");
        ((ObjectNode) container.get("ports").get(0)).put("protocol", "HTTP");
        ((ObjectNode) container.at("/resources/limits")).put("memory", "2 GiB");
        ((ObjectNode) container.at("/readinessProbe/httpGet")).remove("port");
        ((ObjectNode) deployment.get("spec")).put("replicas", 3_000_000_000L);
        String c0 = "/spec/template/spec/containers/0";
        assertThat(schema.validate(deployment)).containsExactlyInAnyOrder(
                c0 + ": property 'imagePullPolcy' is not defined in the schema and the schema does not allow"
                        + " additional properties",
                c0 + "/ports/0/containerPort: string found, integer expected",
                c0 + "/ports/0/protocol: does not have a value in the enumeration [\"SCTP\", \"TCP\", \"UDP\", null]",
                c0 + "/resources/limits/memory: must be valid to one and only one schema, but 0 are valid",
                c0 + "/resources/limits/memory: string found, number expected",
                c0 + "/resources/limits/memory: does not match the quantity pattern",
                c0 + "/readinessProbe/httpGet: required property 'port' not found",
                "/spec/replicas: does not match the int32 pattern");

        ObjectNode secret = rendered.get("Secret/posekit/" + generatedName("Secret", "posekit-s3")).deepCopy();
        ((ObjectNode) secret.get("data")).put("AWS_ACCESS_KEY_ID", "not base64!");
        assertThat(schema.validate(secret)).singleElement().asString().startsWith("/data/AWS_ACCESS_KEY_ID: ");

        ObjectNode hpa = source("hpa.yaml").deepCopy();
        hpa.put("apiVersion", "autoscaling/v2beta2");
        assertThat(schema.validate(hpa)).containsExactly("no schema for autoscaling/v2beta2/HorizontalPodAutoscaler"
                + " (add it to k8s-schema/extract.cjs)");
    }

    // ---- kustomize

    @Test
    void rendererAgreesWithCommittedKustomizeOutput() throws IOException {
        Map<String, ObjectNode> kustomize = Kustomize.byKey(Kustomize.readObjects(RENDERED));
        assertThat(rendered.keySet()).as("objects (regenerate " + RENDERED + " as its README says)")
                .isEqualTo(kustomize.keySet());
        rendered.forEach((key, o) -> assertThat(o).as(key + " (regenerate " + RENDERED
                + " as its README says)").isEqualTo(kustomize.get(key)));
    }

    /** Where kubectl is installed (it is not needed otherwise), the committed outputs are what kustomize prints. */
    @Test
    void committedKustomizeOutputIsCurrent() throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not installed; the renderer check above still ran");
        for (Map.Entry<Path, Path> build : Map.of(BASE, RENDERED, MINIO, MINIO_RENDERED).entrySet()) {
            Path out = Files.createTempFile("kustomize", ".yaml");
            try {
                Process p = new ProcessBuilder("kubectl", "kustomize", build.getKey().toString())
                        .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kubectl kustomize finished").isTrue();
                assertThat(p.exitValue()).as("kubectl kustomize " + build.getKey() + " exit code").isZero();
                assertThat(Files.readString(out)).as("kubectl kustomize " + build.getKey() + " against "
                        + build.getValue() + " (regenerate it as its README says)")
                        .isEqualTo(Files.readString(build.getValue()));
            } finally {
                Files.delete(out);
            }
        }
    }

    @Test
    void hashSuffixesAreKustomizes() {
        // the suffixes kustomize v5.5.0 gave these generators (configMapGenerator / secretGenerator, literals)
        assertThat(Kustomize.hashSuffix("ConfigMap", Map.of("a", "b"))).isEqualTo("4h2mbtbbt6");
        assertThat(Kustomize.hashSuffix("ConfigMap", Map.of("k", "<a & b>"))).isEqualTo("8m2hgdghdc");
        assertThat(Kustomize.hashSuffix("Secret", Map.of("a", "Yg=="))).isEqualTo("k695gkmbtk");
    }

    @Test
    void everyObjectHasTheCommonLabelsAndTheNamespace() {
        rendered.forEach((key, o) -> {
            COMMON_LABELS.forEach((k, v) -> assertThat(o.at("/metadata/labels").path(k).asString()).as(key + " " + k)
                    .isEqualTo(v));
            if (!o.path("kind").asString().equals("Namespace")) {
                assertThat(o.at("/metadata/namespace").asString()).as(key).isEqualTo(NAMESPACE);
            }
        });
        assertThat(object("Namespace", "posekit").at("/metadata/name").asString()).isEqualTo(NAMESPACE);
    }

    // ---- posekit

    @Test
    void deploymentRunsPosekitAsTheImageAndApplicationYmlExpect() throws IOException {
        JsonNode d = object("Deployment", "posekit");
        assertThat(d.at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(labels(d.at("/spec/selector/matchLabels"))).isEqualTo(SERVER_PODS);
        assertThat(labels(d.at("/spec/template/metadata/labels"))).containsAllEntriesOf(SERVER_PODS);
        assertThat(d.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt()).isZero();

        JsonNode pod = d.at("/spec/template/spec");
        JsonNode c = pod.at("/containers");
        assertThat(c.size()).isEqualTo(1);
        c = c.get(0);
        assertThat(c.path("image").asString()).isEqualTo("posekit:latest");
        assertThat(c.at("/ports").size()).isEqualTo(1);
        assertThat(c.at("/ports/0/name").asString()).isEqualTo("http");
        // the Dockerfile's EXPOSE, and Spring's default port (application.yml sets no server.port)
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        String applicationYml = Files.readString(Path.of("src/main/resources/application.yml"));
        assertThat(c.at("/ports/0/containerPort").asInt()).isEqualTo(8080)
                .isEqualTo(Integer.parseInt(find(dockerfile, "(?m)^EXPOSE (\\d+)$")));
        assertThat(applicationYml).doesNotContain("port:").doesNotContain("base-path");

        // Spring Boot's probe groups under the default actuator base path
        assertThat(applicationYml).containsPattern("(?s)probes:\\s+enabled: true");
        assertThat(c.at("/startupProbe/httpGet/path").asString()).isEqualTo("/actuator/health/liveness");
        assertThat(c.at("/livenessProbe/httpGet/path").asString()).isEqualTo("/actuator/health/liveness");
        assertThat(c.at("/readinessProbe/httpGet/path").asString()).isEqualTo("/actuator/health/readiness");
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            assertThat(c.path(probe).at("/httpGet/port").asString()).as(probe).isEqualTo("http");
        }
        assertThat(c.at("/startupProbe/periodSeconds").asInt() * c.at("/startupProbe/failureThreshold").asInt())
                .as("seconds the JVM may take to start").isEqualTo(120);
        // readiness waits for the warm-up, however long it takes (liveness is UP meanwhile): no failure threshold
        // ends the pod for it, and traffic follows its end within 2 s
        assertThat(c.at("/readinessProbe/periodSeconds").asInt()).isEqualTo(2);

        assertThat(c.at("/resources/requests/cpu").asString()).isEqualTo("1");
        assertThat(c.at("/resources/limits/cpu").asString()).isEqualTo("2");
        assertThat(c.at("/resources/requests/memory").asString()).isEqualTo("2Gi");
        assertThat(c.at("/resources/limits/memory").asString()).isEqualTo("2Gi");

        // non-root as the image's user, read-only root with a writable /tmp, no capabilities
        assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.at("/securityContext/runAsUser").asInt()).isEqualTo(10001)
                .isEqualTo(Integer.parseInt(find(dockerfile, "useradd --system --uid (\\d+) ")));
        assertThat(pod.at("/securityContext/seccompProfile/type").asString()).isEqualTo("RuntimeDefault");
        assertThat(c.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(c.at("/securityContext/allowPrivilegeEscalation").asBoolean()).isFalse();
        assertThat(list(c.at("/securityContext/capabilities/drop"))).containsExactly("ALL");
        assertThat(c.at("/volumeMounts/0/mountPath").asString()).isEqualTo("/tmp");
        assertThat(volume(pod, c.at("/volumeMounts/0/name").asString()).has("emptyDir")).isTrue();
        // the API key file: the generated Secret, read-only, where POSEKIT_SECURITY_API_KEYS_FILE points
        assertThat(c.at("/volumeMounts/1/mountPath").asString() + "/api-keys.txt")
                .isEqualTo(SETTINGS.get("POSEKIT_SECURITY_API_KEYS_FILE"));
        assertThat(c.at("/volumeMounts/1/readOnly").asBoolean()).isTrue();
        assertThat(volume(pod, c.at("/volumeMounts/1/name").asString()).at("/secret/secretName").asString())
                .isEqualTo(generatedName("Secret", "posekit-api-keys"));
        assertThat(pod.path("automountServiceAccountToken").asBoolean()).isFalse();
        assertThat(pod.path("enableServiceLinks").asBoolean()).isFalse();
        assertThat(pod.path("serviceAccountName").asString()).isEqualTo("posekit");
        assertThat(object("ServiceAccount", "posekit")).isNotNull();

        // graceful: the preStop pause and Spring's 30 s shutdown phase (application.yml: server.shutdown: graceful)
        assertThat(applicationYml).containsPattern("(?m)^  shutdown: graceful$").doesNotContain("timeout-per-shutdown");
        assertThat(list(c.at("/lifecycle/preStop/exec/command"))).containsExactly("sleep", "15");
        assertThat(pod.path("terminationGracePeriodSeconds").asInt()).isEqualTo(60).isGreaterThanOrEqualTo(15 + 30);

        // spread over nodes and zones, counting this Deployment's pods
        assertThat(pod.path("topologySpreadConstraints")).hasSize(2);
        assertThat(strings(pod.path("topologySpreadConstraints"), "topologyKey"))
                .containsExactly("kubernetes.io/hostname", "topology.kubernetes.io/zone");
        for (JsonNode t : pod.path("topologySpreadConstraints")) {
            assertThat(labels(t.at("/labelSelector/matchLabels"))).isEqualTo(SERVER_PODS);
            assertThat(t.path("maxSkew").asInt()).isEqualTo(1);
        }
    }

    @Test
    void configMapSetsExactlyTheSettingsPosekitReads() {
        JsonNode d = object("Deployment", "posekit");
        JsonNode envFrom = d.at("/spec/template/spec/containers/0/envFrom");
        assertThat(envFrom).hasSize(2);
        String configMap = envFrom.get(0).at("/configMapRef/name").asString();
        assertThat(configMap).isEqualTo(generatedName("ConfigMap", "posekit-config")).startsWith("posekit-config-");
        assertThat(strings(object("ConfigMap", configMap).path("data"))).isEqualTo(SETTINGS);
        assertThat(d.at("/spec/template/spec/containers/0/env").isMissingNode()).isTrue();

        // the cache fits in the heap (75 % of the memory limit) beside the uploads being parsed: their files, read
        // whole (the in-flight cap, at least one maximal upload), their parsed copies (at most 1.5 heap bytes per file
        // byte, ModelFootprintTest) and a quarter of the heap for everything else
        long heap = DataSize.parse("2GB").toBytes() * 75 / 100;
        long cache = DataSize.parse(SETTINGS.get("POSEKIT_CACHE_MAX_BYTES")).toBytes();
        long upload = DataSize.parse(SETTINGS.get("POSEKIT_UPLOAD_MAX_BYTES")).toBytes();
        long inFlight = DataSize.parse(SETTINGS.get("POSEKIT_HTTP_MAX_UPLOAD_BYTES_IN_FLIGHT")).toBytes();
        assertThat(inFlight).isGreaterThanOrEqualTo(upload);
        assertThat(cache + inFlight * 5 / 2 + heap / 4).isLessThanOrEqualTo(heap);
        // the bodies on their way to the bucket fit the /tmp volume beside what else is there
        long spool = DataSize.parse(SETTINGS.get("POSEKIT_HTTP_MAX_SPOOL_BYTES")).toBytes();
        assertThat(spool + DataSize.parse("256MB").toBytes()).isLessThanOrEqualTo(DataSize.parse("2GB").toBytes());
        assertThat(d.at("/spec/template/spec/volumes/0/emptyDir/sizeLimit").asString()).isEqualTo("2Gi");
        assertThat(SETTINGS.get("JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=75");
        assertThat(d.at("/spec/template/spec/containers/0/resources/limits/memory").asString()).isEqualTo("2Gi");
    }

    @Test
    void secretHoldsPlaceholderS3CredentialsForTheAwsSdk() {
        String secret = object("Deployment", "posekit").at("/spec/template/spec/containers/0/envFrom/1/secretRef/name")
                .asString();
        assertThat(secret).isEqualTo(generatedName("Secret", "posekit-s3")).startsWith("posekit-s3-");
        JsonNode s = object("Secret", secret);
        assertThat(s.path("type").asString()).isEqualTo("Opaque");
        Map<String, String> decoded = new LinkedHashMap<>();
        strings(s.path("data")).forEach((k, v) -> decoded.put(k,
                new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
        // the AWS SDK's default credentials chain reads these two; nothing real is committed
        assertThat(decoded).isEqualTo(Map.of("AWS_ACCESS_KEY_ID", "REPLACE_ME", "AWS_SECRET_ACCESS_KEY", "REPLACE_ME"));
    }

    @Test
    void servicesSelectThePodsAndTargetTheirNamedPort() {
        JsonNode service = object("Service", "posekit");
        assertThat(service.at("/spec/type").asString()).isEqualTo("ClusterIP");
        assertThat(labels(service.at("/spec/selector"))).isEqualTo(SERVER_PODS);
        assertThat(service.at("/spec/ports")).hasSize(1);
        assertThat(service.at("/spec/ports/0/port").asInt()).isEqualTo(80);
        assertThat(service.at("/spec/ports/0/targetPort").asString()).isEqualTo("http");

        JsonNode headless = object("Service", "posekit-headless");
        assertThat(headless.at("/spec/clusterIP").asString()).isEqualTo("None");
        assertThat(labels(headless.at("/spec/selector"))).isEqualTo(SERVER_PODS);
        assertThat(headless.at("/spec/ports/0/port").asInt()).isEqualTo(8080);
        assertThat(headless.at("/spec/ports/0/targetPort").asString()).isEqualTo("http");
        assertThat(headless.at("/spec/publishNotReadyAddresses").asBoolean(false)).isFalse();

        JsonNode router = object("Service", "posekit-router");
        assertThat(labels(router.at("/spec/selector"))).isEqualTo(ROUTER_PODS);
        assertThat(router.at("/spec/ports/0/port").asInt()).isEqualTo(80);
        assertThat(router.at("/spec/ports/0/targetPort").asString()).isEqualTo("http");

        // each selector picks the pods of exactly one Deployment, whose container has the named port
        for (String name : List.of("posekit", "posekit-headless", "posekit-router")) {
            JsonNode s = object("Service", name);
            List<String> selected = rendered.values().stream().filter(o -> o.path("kind").asString()
                    .equals("Deployment")).filter(o -> labels(o.at("/spec/template/metadata/labels"))
                    .entrySet().containsAll(labels(s.at("/spec/selector")).entrySet()))
                    .map(o -> o.at("/metadata/name").asString()).toList();
            assertThat(selected).as(name).hasSize(1);
            JsonNode ports = object("Deployment", selected.get(0)).at("/spec/template/spec/containers/0/ports");
            assertThat(strings(ports, "name")).as(name).contains(s.at("/spec/ports/0/targetPort").asString());
        }
    }

    @Test
    void autoscalerScalesTheDeploymentOnCpu() {
        JsonNode hpa = object("HorizontalPodAutoscaler", "posekit");
        assertThat(hpa.at("/spec/scaleTargetRef/apiVersion").asString()).isEqualTo("apps/v1");
        assertThat(hpa.at("/spec/scaleTargetRef/kind").asString()).isEqualTo("Deployment");
        assertThat(hpa.at("/spec/scaleTargetRef/name").asString()).isEqualTo("posekit");
        assertThat(object("Deployment", hpa.at("/spec/scaleTargetRef/name").asString())).isNotNull();
        assertThat(hpa.at("/spec/minReplicas").asInt()).isEqualTo(3)
                .isEqualTo(object("Deployment", "posekit").at("/spec/replicas").asInt());
        assertThat(hpa.at("/spec/maxReplicas").asInt()).isEqualTo(12);
        assertThat(hpa.at("/spec/metrics")).hasSize(1);
        assertThat(hpa.at("/spec/metrics/0/type").asString()).isEqualTo("Resource");
        assertThat(hpa.at("/spec/metrics/0/resource/name").asString()).isEqualTo("cpu");
        assertThat(hpa.at("/spec/metrics/0/resource/target/type").asString()).isEqualTo("Utilization");
        assertThat(hpa.at("/spec/metrics/0/resource/target/averageUtilization").asInt()).isEqualTo(70);
        assertThat(hpa.at("/spec/behavior/scaleDown/stabilizationWindowSeconds").asInt()).isEqualTo(300);
        assertThat(hpa.at("/spec/behavior/scaleDown/policies/0/type").asString()).isEqualTo("Pods");
        assertThat(hpa.at("/spec/behavior/scaleDown/policies/0/value").asInt()).isEqualTo(1);
        assertThat(hpa.at("/spec/behavior/scaleUp/stabilizationWindowSeconds").asInt()).isZero();
    }

    @Test
    void disruptionBudgetsCoverThePods() {
        JsonNode server = object("PodDisruptionBudget", "posekit");
        assertThat(labels(server.at("/spec/selector/matchLabels"))).isEqualTo(SERVER_PODS)
                .isEqualTo(labels(object("Deployment", "posekit").at("/spec/selector/matchLabels")));
        assertThat(server.at("/spec/maxUnavailable").asInt()).isEqualTo(1);
        assertThat(server.at("/spec/minAvailable").isMissingNode()).isTrue();

        JsonNode router = object("PodDisruptionBudget", "posekit-router");
        assertThat(labels(router.at("/spec/selector/matchLabels"))).isEqualTo(ROUTER_PODS)
                .isEqualTo(labels(object("Deployment", "posekit-router").at("/spec/selector/matchLabels")));
        assertThat(router.at("/spec/minAvailable").asInt()).isEqualTo(1)
                .isLessThan(object("Deployment", "posekit-router").at("/spec/replicas").asInt());
    }

    @Test
    void routerRunsNginxUnprivilegedWithItsConfig() {
        JsonNode d = object("Deployment", "posekit-router");
        assertThat(d.at("/spec/replicas").asInt()).isEqualTo(2);
        assertThat(labels(d.at("/spec/selector/matchLabels"))).isEqualTo(ROUTER_PODS);
        JsonNode pod = d.at("/spec/template/spec");
        JsonNode c = pod.at("/containers/0");
        assertThat(pod.path("containers")).hasSize(1);
        assertThat(c.path("image").asString()).isEqualTo("nginx:1.28-alpine");
        // `server … resolve` in an open-source upstream block needs nginx 1.27.3 or later
        Matcher version = Pattern.compile("nginx:(\\d+)\\.(\\d+)").matcher(c.path("image").asString());
        assertThat(version.lookingAt()).isTrue();
        assertThat(Integer.parseInt(version.group(1)) * 1000 + Integer.parseInt(version.group(2)))
                .isGreaterThanOrEqualTo(1_028);
        assertThat(list(c.path("command"))).containsExactly("nginx", "-g", "daemon off;");

        assertThat(c.at("/ports/0/name").asString()).isEqualTo("http");
        assertThat(c.at("/ports/0/containerPort").asInt()).isEqualTo(8080);
        assertThat(c.at("/ports/1/name").asString()).isEqualTo("health");
        assertThat(c.at("/ports/1/containerPort").asInt()).isEqualTo(8081);
        for (String probe : List.of("livenessProbe", "readinessProbe")) {
            assertThat(c.path(probe).at("/httpGet/path").asString()).as(probe).isEqualTo("/healthz");
            assertThat(c.path(probe).at("/httpGet/port").asString()).as(probe).isEqualTo("health");
        }
        assertThat(c.at("/resources/requests/cpu").asString()).isEqualTo("250m");
        assertThat(c.at("/resources/limits/memory").asString()).isEqualTo("128Mi");

        assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.at("/securityContext/runAsUser").asInt()).isEqualTo(101);
        assertThat(pod.at("/securityContext/seccompProfile/type").asString()).isEqualTo("RuntimeDefault");
        assertThat(c.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(c.at("/securityContext/allowPrivilegeEscalation").asBoolean()).isFalse();
        assertThat(list(c.at("/securityContext/capabilities/drop"))).containsExactly("ALL");

        Map<String, String> mounts = strings(c.path("volumeMounts"), "name", "mountPath");
        assertThat(mounts).isEqualTo(Map.of("nginx-conf", "/etc/nginx/nginx.conf", "tmp", "/tmp"));
        assertThat(c.at("/volumeMounts/0/subPath").asString()).isEqualTo("nginx.conf");
        assertThat(volume(pod, "tmp").has("emptyDir")).isTrue();
        String configMap = volume(pod, "nginx-conf").at("/configMap/name").asString();
        assertThat(configMap).isEqualTo(generatedName("ConfigMap", "posekit-router-nginx"));
        assertThat(object("ConfigMap", configMap).path("data").propertyNames()).containsExactly("nginx.conf");
    }

    @Test
    void routerHashesEachAssetIdConsistentlyOverTheHeadlessService() {
        String conf = routerConf();
        // the key: the asset id of /api/v1/assets/{id}…, else a per-request value (no affinity)
        assertThat(conf).contains("""
                    map $uri $asset_id {
                        "~^/api/v1/assets/(?<id>[0-9a-f]{64})(?:/|$)" $id;
                        default $request_id;
                    }
                """);
        assertThat(conf).containsOnlyOnce("hash $asset_id consistent;").containsOnlyOnce("zone posekit ");

        // the upstream is the headless Service's fully qualified name, its port, re-resolved (`resolve`)
        JsonNode headless = object("Service", "posekit-headless");
        String upstream = headless.at("/metadata/name").asString() + "." + headless.at("/metadata/namespace")
                .asString() + ".svc.cluster.local:" + headless.at("/spec/ports/0/port").asInt();
        assertThat(conf).containsOnlyOnce("server " + upstream + " resolve max_fails=3 fail_timeout=10s;");
        assertThat(find(conf, "(?m)^\\s*server (\\S+) resolve")).isEqualTo(
                "posekit-headless.posekit.svc.cluster.local:8080");
        assertThat(conf).containsOnlyOnce("resolver kube-dns.kube-system.svc.cluster.local valid=5s ipv6=off;");
        assertThat(conf).containsOnlyOnce("proxy_pass http://posekit;");
        assertThat(conf).containsOnlyOnce("proxy_next_upstream error timeout http_502;");
        assertThat(conf).doesNotContain("http_503");
        assertThat(conf).containsOnlyOnce("add_header X-Posekit-Upstream $upstream_addr always;");

        // the same regular expression in Java (PCRE and java.util.regex agree on it)
        Pattern key = Pattern.compile(find(conf, "\"~(\\^/api/v1/assets/[^\"]+)\" \\$id;"));
        String id = "0123456789abcdef".repeat(4);
        assertThat(key(key, "/api/v1/assets/" + id)).isEqualTo(id);
        assertThat(key(key, "/api/v1/assets/" + id + "/clips/0/pose")).isEqualTo(id);
        assertThat(key(key, "/api/v1/assets/" + id + "0")).isNull();
        assertThat(key(key, "/api/v1/assets/" + id.toUpperCase())).isNull();
        assertThat(key(key, "/api/v1/assets")).isNull();
        assertThat(key(key, "/api/v1/assets/")).isNull();
    }

    @Test
    void routerListensWhereTheDeploymentSaysAndAcceptsPosekitsLargestUpload() {
        String conf = routerConf();
        JsonNode c = object("Deployment", "posekit-router").at("/spec/template/spec/containers/0");
        assertThat(find(conf, "(?m)^\\s*listen (\\d+);$")).isEqualTo(c.at("/ports/0/containerPort").asString());
        assertThat(conf).containsOnlyOnce("listen " + c.at("/ports/1/containerPort").asInt() + ";")
                .containsOnlyOnce("location = /healthz {");
        // client_max_body_size is posekit.upload.max-bytes: nginx refuses nothing posekit would take
        assertThat(DataSize.parse(find(conf, "client_max_body_size (\\d+)m;") + "MB"))
                .isEqualTo(DataSize.parse(SETTINGS.get("POSEKIT_UPLOAD_MAX_BYTES")));
        assertThat(conf).containsOnlyOnce("proxy_request_buffering off;");
        // with a read-only root, everything nginx writes is under the /tmp emptyDir
        assertThat(conf).contains("pid /tmp/nginx.pid;");
        for (String temp : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
            assertThat(conf).contains(temp + "_temp_path /tmp/");
        }
    }

    // ---- the MinIO example overlay

    @Test
    void minioOverlayIsValidAndPointsPosekitAtMinio() throws IOException {
        JsonNode k = Kustomize.YAML.readTree(MINIO.resolve("kustomization.yaml").toFile());
        Set<String> files = new TreeSet<>();
        try (Stream<Path> walk = Files.list(MINIO)) {
            walk.map(f -> f.getFileName().toString()).forEach(files::add);
        }
        Set<String> listed = new TreeSet<>(List.of("kustomization.yaml", "README.md", "laptop-requests.yaml"));
        k.path("resources").forEach(r -> listed.add(r.asString()));
        listed.remove("../k8s");
        assertThat(files).isEqualTo(listed);
        assertThat(k.path("resources").get(0).asString()).isEqualTo("../k8s");

        // every object kustomize makes of it is valid, and it holds the base's objects plus MinIO's
        Map<String, ObjectNode> minio = Kustomize.byKey(Kustomize.readObjects(MINIO_RENDERED));
        Map<String, List<String>> errors = new LinkedHashMap<>();
        minio.forEach((key, o) -> {
            List<String> e = schema.validate(o);
            if (!e.isEmpty()) {
                errors.put(key, e);
            }
        });
        assertThat(errors).as("schema errors by object in " + MINIO_RENDERED).isEmpty();
        Set<String> kinds = new TreeSet<>();
        minio.keySet().forEach(key -> kinds.add(key.replaceAll("-[a-z0-9]{10}$", "")));
        Set<String> expected = new TreeSet<>();
        rendered.keySet().forEach(key -> expected.add(key.replaceAll("-[a-z0-9]{10}$", "")));
        expected.addAll(List.of("PersistentVolumeClaim/posekit/minio-data", "Deployment/posekit/minio",
                "Service/posekit/minio", "Job/posekit/minio-bucket"));
        assertThat(kinds).isEqualTo(expected);

        // posekit's endpoint is the minio Service, its bucket the one the Job creates
        JsonNode posekit = minio.get("Deployment/posekit/posekit");
        String configMap = posekit.at("/spec/template/spec/containers/0/envFrom/0/configMapRef/name").asString();
        Map<String, String> settings = new LinkedHashMap<>(SETTINGS);
        settings.put("POSEKIT_STORE_S3_ENDPOINT", "http://minio.posekit.svc.cluster.local:9000");
        assertThat(strings(minio.get("ConfigMap/posekit/" + configMap).path("data"))).isEqualTo(settings);
        JsonNode service = minio.get("Service/posekit/minio");
        assertThat(service.at("/spec/ports/0/port").asInt()).isEqualTo(9000);
        assertThat(labels(service.at("/spec/selector"))).isEqualTo(
                labels(minio.get("Deployment/posekit/minio").at("/spec/selector/matchLabels")));
        assertThat(minio.get("Job/posekit/minio-bucket").at("/spec/template/spec/containers/0/command/2")
                .asString()).endsWith("mc mb --ignore-existing local/" + SETTINGS.get("POSEKIT_STORE_S3_BUCKET"));

        // MinIO's root user is posekit's S3 user: one Secret, read by both
        String secret = posekit.at("/spec/template/spec/containers/0/envFrom/1/secretRef/name").asString();
        assertThat(secret).startsWith("posekit-s3-");
        JsonNode minioEnv = minio.get("Deployment/posekit/minio").at("/spec/template/spec/containers/0/env");
        minioEnv.forEach(e -> assertThat(e.at("/valueFrom/secretKeyRef/name").asString()).isEqualTo(secret));
        assertThat(strings(minioEnv, "name")).containsExactly("MINIO_ROOT_USER", "MINIO_ROOT_PASSWORD");
        assertThat(minio.get("Secret/posekit/" + secret).path("data").propertyNames())
                .containsExactlyInAnyOrder("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY");

        // laptop-sized requests, the base's limits
        JsonNode resources = posekit.at("/spec/template/spec/containers/0/resources");
        assertThat(strings(resources.path("requests"))).isEqualTo(Map.of("cpu", "250m", "memory", "1Gi"));
        assertThat(strings(resources.path("limits"))).isEqualTo(Map.of("cpu", "2", "memory", "2Gi"));
    }

    // ---- helpers

    private static String routerConf() {
        String configMap = object("Deployment", "posekit-router").at("/spec/template/spec/volumes").valueStream()
                .filter(v -> v.has("configMap")).findFirst().orElseThrow().at("/configMap/name").asString();
        return object("ConfigMap", configMap).at("/data/nginx.conf").asString();
    }

    private static String key(Pattern key, String uri) {
        Matcher m = key.matcher(uri);
        return m.find() ? m.group("id") : null;
    }

    private static ObjectNode object(String kind, String name) {
        String namespace = kind.equals("Namespace") ? "" : NAMESPACE;
        ObjectNode o = rendered.get(kind + "/" + namespace + "/" + name);
        assertThat(o).as(kind + " " + name).isNotNull();
        return o;
    }

    private static ObjectNode source(String file) {
        return sources.get(file).get(0);
    }

    private static JsonNode generator(String list, String name) {
        return kustomization.path(list).valueStream().filter(g -> g.path("name").asString().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError(list + " " + name));
    }

    private static Map<String, String> image(String name) {
        return strings(kustomization.path("images").valueStream().filter(i -> i.path("name").asString()
                .equals(name)).findFirst().orElseThrow(() -> new AssertionError("images: " + name)));
    }

    /** The generated object's name with kustomize's hash suffix (checked against kustomize's output). */
    private static String generatedName(String kind, String name) {
        List<String> names = rendered.values().stream().filter(o -> o.path("kind").asString().equals(kind))
                .map(o -> o.at("/metadata/name").asString()).filter(n -> n.matches(Pattern.quote(name)
                        + "-[a-z0-9]{10}")).toList();
        assertThat(names).as(kind + " " + name + "-<hash>").hasSize(1);
        return names.get(0);
    }

    private static JsonNode volume(JsonNode pod, String name) {
        return pod.path("volumes").valueStream().filter(v -> v.path("name").asString().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("volume " + name));
    }

    private static Map<String, String> labels(JsonNode node) {
        return strings(node);
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> map = new LinkedHashMap<>();
        object.properties().forEach(e -> map.put(e.getKey(), e.getValue().asString()));
        return map;
    }

    private static Map<String, String> strings(JsonNode array, String key, String value) {
        Map<String, String> map = new LinkedHashMap<>();
        array.forEach(e -> map.put(e.path(key).asString(), e.path(value).asString()));
        return map;
    }

    private static List<String> strings(JsonNode array, String field) {
        List<String> list = new ArrayList<>();
        array.forEach(e -> list.add(e.path(field).asString()));
        return list;
    }

    private static List<String> list(JsonNode array) {
        List<String> list = new ArrayList<>();
        array.forEach(e -> list.add(e.asString()));
        return list;
    }

    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex).isTrue();
        return m.group(1);
    }

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }
}
