// Validates GLB/glTF files with the Khronos glTF-Validator and prints one JSON report per line:
//   {"file": "...", "errors": n, "warnings": n, "infos": n, "hints": n, "messages": [...], "info": {...}}
// Usage: node validate.js FILE...   (node validate.js --version prints the validator's version)
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

async function main(args) {
  if (args.length === 1 && args[0] === '--version') {
    console.log(validator.version());
    return 0;
  }
  for (const file of args) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 0,
      // a GLB from posekit is self-contained: any external reference is a failure
      externalResourceFunction: (uri) => Promise.reject(new Error('external resource ' + uri)),
    });
    const issues = report.issues;
    console.log(JSON.stringify({
      file,
      validatorVersion: report.validatorVersion,
      errors: issues.numErrors,
      warnings: issues.numWarnings,
      infos: issues.numInfos,
      hints: issues.numHints,
      messages: issues.messages,
      info: report.info,
    }));
  }
  return 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(2);
});
