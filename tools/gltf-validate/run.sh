#!/usr/bin/env bash
# Validates the animated glTF posekit writes for every conformance asset with the Khronos glTF-Validator
# (npm gltf-validator, pinned in package.json) and prints a Markdown table: errors, warnings, infos and hints per
# file, and what the export resampled. Exits 1 when any file has an error.
#
#   tools/gltf-validate/run.sh [CONFORMANCE_DIR]     (default ../shared/conformance; needs Node.js ≥ 20 and JDK 25)
#
# When the conformance oracle is installed beside it (CONFORMANCE_DIR/../tools/oracle with node_modules), three.js
# then loads the exported Fox, CesiumMan, BrainStem and both FBX assets, poses them at every conformance sample
# instant, and three-check.mjs compares its skinning matrices and skinned positions with posekit's (PoseDump).
#
# The files are written in-process by io.posekit.export.ExportConformanceAssets (test classes) into
# tools/gltf-validate/out/: <asset>.glb and <asset>.gltf, and report.tsv.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conformance="$(cd "${1:-$root/../shared/conformance}" && pwd)"
out="$here/out"
mvn="$root/mvnw"
offline=""
if "$mvn" -q -o -f "$root/pom.xml" help:help >/dev/null 2>&1; then offline="-o"; fi

echo "building the test classes and their classpath" >&2
"$mvn" -q $offline -f "$root/pom.xml" test-compile || exit 2
"$mvn" -q $offline -f "$root/pom.xml" dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$root/target/export-classpath.txt" >/dev/null || exit 2
rm -rf "$out" && mkdir -p "$out"
java -Dposekit.conformance.dir="$conformance" \
    -cp "$root/target/test-classes:$root/target/classes:$(cat "$root/target/export-classpath.txt")" \
    io.posekit.export.ExportConformanceAssets "$out" >&2 || exit 2

echo "installing gltf-validator" >&2
(cd "$here" && npm ci --no-audit --no-fund --silent >&2) || exit 2
# the same validation script as GltfValidatorIT's container, resolving gltf-validator from here
NODE_PATH="$here/node_modules" node "$root/src/test/docker/gltf-validator/validate.js" "$out"/*.glb "$out"/*.gltf \
    > "$out/reports.jsonl" || exit 2

node - "$out" <<'JS'
const fs = require('fs');
const out = process.argv[2];
const tsv = fs.readFileSync(out + '/report.tsv', 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
const exported = Object.fromEntries(tsv.map((r) => [r[0], r]));
const reports = fs.readFileSync(out + '/reports.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const byFile = Object.fromEntries(reports.map((r) => [require('path').basename(r.file), r]));
let version = reports.length ? reports[0].validatorVersion : '?';
let failed = 0;
console.log(`| asset | format | clips | resampled keys | max error (rad / units) | GLB errors / warnings / infos / hints | .gltf errors / warnings |`);
console.log(`|---|---|---|---|---|---|---|`);
for (const id of Object.keys(exported)) {
  const e = exported[id];
  const g = byFile[id + '.glb'];
  const j = byFile[id + '.gltf'];
  failed += g.errors + j.errors;
  console.log(`| ${id} | ${e[1]} | ${e[2]} | ${e[3]} → ${e[4]} | ${e[5]} / ${e[6]} | ${g.errors} / ${g.warnings} / ${g.infos} / ${g.hints} | ${j.errors} / ${j.warnings} |`);
}
console.log(`\ngltf-validator ${version}: ${reports.length} files, ${failed} errors`);
for (const r of reports) {
  for (const m of r.messages.filter((m) => m.severity <= 1)) {
    console.log(`  ${require('path').basename(r.file)}: ${m.severity === 0 ? 'ERROR' : 'WARNING'} ${m.code} at ${m.pointer || '?'}: ${m.message}`);
  }
}
process.exit(failed ? 1 : 0);
JS
status=$?

oracle="$(dirname "$conformance")/tools/oracle"
if [ -d "$oracle/node_modules" ]; then
  three_assets="gltf-Fox gltf-CesiumMan gltf-BrainStem fbx-animation_with_skeleton fbx-huesitos"
  echo >&2 "three.js poses of the exported $three_assets"
  java -Dposekit.conformance.dir="$conformance" \
      -cp "$root/target/test-classes:$root/target/classes:$(cat "$root/target/export-classpath.txt")" \
      io.posekit.export.PoseDump "$out" $three_assets >&2
  echo
  node "$here/three-check.mjs" "$out" "$oracle" $three_assets
fi
exit $status
