#!/usr/bin/env bash
# Makes the Blender-exported fixtures the colour test reads (BlenderColoursTest: it skips without them):
# make_colour_fixtures.py's two scenes as FBX, COLLADA and glTF, into OUT_DIR (default target/blender-fixtures).
# Needs Debian's blender (apt-get install blender python3-numpy; ../shared/tools/blender/README.md); about 3 s.
# (make_fixtures.py's character is committed under src/test/resources/fixtures/dressed and not remade here.)
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-target/blender-fixtures}"
command -v blender >/dev/null || { echo "blender is not installed" >&2; exit 1; }
mkdir -p "$out"
log="$out/blender.log"
if ! blender -b --factory-startup --python-exit-code 1 --python tools/blender-fixtures/make_colour_fixtures.py \
    -- "$out" >"$log" 2>&1; then
  tail -20 "$log" >&2
  exit 1
fi
for f in swatches.fbx swatches.dae swatches.glb textured.fbx textured.dae textured.glb textured_grid.png; do
  [ -s "$out/$f" ] || { echo "Blender did not write $out/$f (see $log)" >&2; exit 1; }
done
echo "Blender fixtures in $out"
