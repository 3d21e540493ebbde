// Compiles src/*.sol with solcjs (standard JSON, imports from node_modules) and writes
// <out>/<Contract>.abi (JSON) and <out>/<Contract>.bin (hex creation bytecode) per deployable
// contract (interfaces such as IERC3009 get no artifact).
// Usage: NODE_PATH=<dir>/node_modules node compile.js <src dir> <out dir>
'use strict';
const fs = require('fs');
const path = require('path');
const solc = require('solc');

const [srcDir, outDir] = process.argv.slice(2);
if (!srcDir || !outDir) {
  console.error('usage: node compile.js <src dir> <out dir>');
  process.exit(2);
}
const sources = {};
for (const f of fs.readdirSync(srcDir).filter((f) => f.endsWith('.sol')).sort()) {
  sources[f] = { content: fs.readFileSync(path.join(srcDir, f), 'utf8') };
}
const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
function findImports(p) {
  try {
    return { contents: fs.readFileSync(require.resolve(p), 'utf8') };
  } catch (e) {
    return { error: 'not found: ' + p };
  }
}
const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const errors = (out.errors || []).filter((e) => e.severity === 'error');
for (const e of out.errors || []) console.error(e.formattedMessage);
if (errors.length) process.exit(1);
fs.mkdirSync(outDir, { recursive: true });
for (const file of Object.keys(sources)) {
  for (const [name, c] of Object.entries(out.contracts[file])) {
    if (!c.evm.bytecode.object) continue; // an interface or abstract contract: nothing to deploy or bind
    fs.writeFileSync(path.join(outDir, name + '.abi'), JSON.stringify(c.abi) + '\n');
    fs.writeFileSync(path.join(outDir, name + '.bin'), c.evm.bytecode.object + '\n');
  }
}
console.error('solc ' + solc.version() + ': compiled ' + Object.keys(sources).join(', '));
