// Checks an anchor snapshot document in the browser, by the rules of
// package anchor (schema version 1): each record's leaf is
// keccak256(keccak256(JCS(record))), the salt's is
// keccak256(keccak256(salt bytes)), and the root is OpenZeppelin's
// sorted-pair Merkle tree over the leaves sorted in ascending byte order.
import { keccak256, toHex, fromHex } from './keccak.js';

// jcs is the RFC 8785 canonical JSON of a parsed JSON value: object
// members sorted by UTF-16 code units, no whitespace, numbers and strings
// as ECMAScript serialises them.
export function jcs(v) {
  if (Array.isArray(v)) return `[${v.map(jcs).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${jcs(v[k])}`).join(',')}}`;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) throw new Error('a number is not finite');
  return JSON.stringify(v);
}

const utf8 = new TextEncoder();
const leaf = (bytes) => keccak256(keccak256(bytes));

function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function hashPair(a, b) {
  const both = new Uint8Array(64);
  if (compare(a, b) > 0) [a, b] = [b, a];
  both.set(a);
  both.set(b, 32);
  return keccak256(both);
}

// merkleRoot is the root of the tree of leaves (any order).
export function merkleRoot(leaves) {
  let level = [...leaves].sort(compare);
  if (level.length === 0) return new Uint8Array(32);
  while (level.length > 1) {
    const next = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 === level.length ? level[i] : hashPair(level[i], level[i + 1]));
    level = next;
  }
  return level[0];
}

// verifySnapshot checks doc (the parsed snapshot document) against the
// job's id and anchor root; it returns {ok, message}.
export function verifySnapshot(doc, jobID, anchorRoot) {
  const fail = (message) => ({ ok: false, message: `Not verified: ${message}` });
  try {
    if (!doc || doc.schema_version !== 1) return fail('unknown schema_version');
    if (doc.job_id !== jobID) return fail(`the snapshot is of job ${doc.job_id}`);
    if (!Array.isArray(doc.records) || doc.records.length === 0) return fail('the snapshot has no records');
    const ids = new Set();
    const leaves = doc.records.map((r) => {
      if (r === null || typeof r !== 'object' || typeof r.id !== 'string' || ids.has(r.id)) throw new Error('a record has no id or a repeated one');
      ids.add(r.id);
      return leaf(utf8.encode(jcs(r)));
    });
    const salt = fromHex(doc.salt);
    if (salt.length !== 32) return fail('the salt is not 32 bytes');
    leaves.push(leaf(salt));
    const root = toHex(merkleRoot(leaves));
    const want = String(anchorRoot).toLowerCase();
    if (root !== want) return fail(`the records hash to ${root}, the job's anchor root is ${want}`);
    if (String(doc.root).toLowerCase() !== want) return fail(`the document names root ${doc.root}`);
    return { ok: true, message: `Verified: the ${doc.records.length} records and the salt hash to the anchor root ${root}.` };
  } catch (e) {
    return fail(e.message);
  }
}
