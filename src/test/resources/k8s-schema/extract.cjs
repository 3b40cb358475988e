// Regenerates kubernetes-definitions.json from the npm package kubernetes-models (see README.md here):
//   npm install --prefix /tmp/k8s-models kubernetes-models@4.3.1
//   node extract.cjs /tmp/k8s-models/node_modules > kubernetes-definitions.json
// The package registers one JSON schema per OpenAPI definition through @kubernetes-models/validate's register();
// this script catches those calls for the kinds the manifests use (and everything they reference), and writes
// them out unchanged but for the references, "io.k8s…X#" becoming "#/definitions/io.k8s…X".
"use strict";
const path = require("node:path");
const modules = path.resolve(process.argv[2] ?? "node_modules");
// absolute paths: the package's "exports" map hides _schemas/ from bare requires
const validate = require(path.join(modules, "@kubernetes-models/validate"));
const definitions = {};
validate.register = (id, schema) => { definitions[id] = schema; };

const KINDS = [
  "IoK8sApiCoreV1Namespace",
  "IoK8sApiCoreV1ServiceAccount",
  "IoK8sApiCoreV1ConfigMap",
  "IoK8sApiCoreV1Secret",
  "IoK8sApiCoreV1Service",
  "IoK8sApiAppsV1Deployment",
  "IoK8sApiAutoscalingV2HorizontalPodAutoscaler",
  "IoK8sApiPolicyV1PodDisruptionBudget",
  // the MinIO example (deploy/k8s-minio)
  "IoK8sApiCoreV1PersistentVolumeClaim",
  "IoK8sApiBatchV1Job",
];
for (const kind of KINDS) {
  require(path.join(modules, "kubernetes-models/_schemas", `${kind}.js`)).addSchema();
}

const pkg = require(path.join(modules, "kubernetes-models/package.json"));
const rewrite = (node) => {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node && typeof node === "object") {
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = key === "$ref" && value.endsWith("#") ? `#/definitions/${value.slice(0, -1)}` : rewrite(value);
    }
    return out;
  }
  return node;
};
const sorted = {};
for (const id of Object.keys(definitions).sort()) sorted[id] = rewrite(definitions[id]);
process.stdout.write(JSON.stringify({
  $comment: `Kubernetes 1.27.1 OpenAPI definitions as JSON schemas, from the npm package ${pkg.name}@${pkg.version} `
    + `(MIT; generated from the Kubernetes OpenAPI spec). Regenerate with extract.cjs; see README.md.`,
  definitions: sorted,
}, null, 1) + "\n");
