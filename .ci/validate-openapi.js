#!/usr/bin/env node
// Validates an OpenAPI document with @apidevtools/swagger-parser, a
// validator independent of the Go one (kin-openapi) the tests use: schema
// validation against the OpenAPI 3.0 JSON schema and $ref resolution,
// plus the semantic rules swagger-parser leaves out for OpenAPI 3 (unique
// operationIds, declared path parameters). Exits non-zero when the
// document is invalid.
//
// Usage: NODE_PATH=<dir>/node_modules node .ci/validate-openapi.js <file>
'use strict';

const SwaggerParser = require('@apidevtools/swagger-parser');

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// semanticProblems checks rules of the OpenAPI 3 specification that
// swagger-parser 10 checks only for Swagger 2.0 documents: operationIds are
// unique, and every {param} of a path template is declared as a path
// parameter of each operation (and every declared path parameter is in
// the template).
function semanticProblems(api) {
  const problems = [];
  const ids = new Map();
  for (const [path, item] of Object.entries(api.paths || {})) {
    const inTemplate = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (op.operationId) {
        if (ids.has(op.operationId)) {
          problems.push(`${where}: operationId ${op.operationId} is also used by ${ids.get(op.operationId)}`);
        }
        ids.set(op.operationId, where);
      }
      const declared = new Set();
      for (const p of [...(item.parameters || []), ...(op.parameters || [])]) {
        if (p.in === 'path') declared.add(p.name);
      }
      for (const name of inTemplate) {
        if (!declared.has(name)) problems.push(`${where}: path parameter {${name}} is not declared`);
      }
      for (const name of declared) {
        if (!inTemplate.has(name)) problems.push(`${where}: path parameter ${name} is not in the path`);
      }
    }
  }
  return problems;
}

async function main(file) {
  const api = await SwaggerParser.validate(file);
  if (!/^3\.0\.\d+$/.test(api.openapi || '')) {
    throw new Error(`openapi is ${JSON.stringify(api.openapi)}, want 3.0.x`);
  }
  const problems = semanticProblems(api);
  if (problems.length > 0) {
    throw new Error(problems.join('\n  '));
  }
  let operations = 0;
  for (const item of Object.values(api.paths || {})) {
    for (const method of METHODS) {
      if (item[method]) operations++;
    }
  }
  const schemas = Object.keys((api.components && api.components.schemas) || {}).length;
  console.log(`${file}: valid OpenAPI ${api.openapi} document "${api.info.title}" ${api.info.version}: ` +
    `${Object.keys(api.paths || {}).length} paths, ${operations} operations, ${schemas} schemas`);
}

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('usage: node .ci/validate-openapi.js <openapi.yaml|openapi.json>');
  process.exit(2);
}
main(file).catch((err) => {
  console.error(`${file}: INVALID OpenAPI document: ${err.message}`);
  process.exit(1);
});
