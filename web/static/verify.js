// Checks an anchor snapshot document in the browser, by the rules of
// package anchor (schema versions 1 and 2): each record's leaf is
// keccak256(keccak256(JCS(record))), except a payout record's (version 2),
// keccak256(keccak256(abi.encode(job_key, recipient, amount))), the leaf
// the bounty escrow's claim verifies; the salt's is
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

// payoutLeaf is the leaf of a payout: keccak256(keccak256(abi.encode(
// bytes32 jobKey, address recipient, uint256 amount))), amount a decimal
// string of micro-USDC.
export function payoutLeaf(jobKey, recipient, amount) {
  const words = new Uint8Array(96);
  words.set(jobKey, 0);
  words.set(fromHex(recipient), 44);
  let v = BigInt(amount);
  for (let i = 95; i >= 64 && v > 0n; i--) {
    words[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return leaf(words);
}

// recordLeaf is the leaf of record r of the job whose key is jobKey (a
// payout's is checked: its id, recipient, job key and amount).
function recordLeaf(r, jobKey) {
  if (r.type !== 'payout') return leaf(utf8.encode(jcs(r)));
  const addr = /^0x[0-9a-f]{40}$/;
  if (typeof r.recipient !== 'string' || !addr.test(r.recipient) || r.id !== `payout:${r.recipient}`) throw new Error(`payout record ${r.id}: bad recipient or id`);
  if (r.job_key !== toHex(jobKey)) throw new Error(`payout record ${r.id}: job_key is not keccak256 of the job id`);
  if (typeof r.amount_micro_usdc !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(r.amount_micro_usdc)) throw new Error(`payout record ${r.id}: bad amount`);
  return payoutLeaf(jobKey, r.recipient, r.amount_micro_usdc);
}

// keccakOf and toHexOf are keccak256 of a text's UTF-8 bytes and the hex
// of bytes, for tests and pages that compute job keys and leaves.
export const keccakOf = (text) => keccak256(utf8.encode(text));
export const toHexOf = (bytes) => toHex(bytes);

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
    if (!doc || (doc.schema_version !== 1 && doc.schema_version !== 2)) return fail('unknown schema_version');
    if (doc.job_id !== jobID) return fail(`the snapshot is of job ${doc.job_id}`);
    if (!Array.isArray(doc.records) || doc.records.length === 0) return fail('the snapshot has no records');
    const payouts = doc.records.filter((r) => r && r.type === 'payout').length;
    if ((doc.schema_version === 2) !== (payouts > 0)) return fail(`schema_version ${doc.schema_version} with ${payouts} payout records`);
    const jobKey = keccak256(utf8.encode(jobID));
    const ids = new Set();
    const leaves = doc.records.map((r) => {
      if (r === null || typeof r !== 'object' || typeof r.id !== 'string' || ids.has(r.id)) throw new Error('a record has no id or a repeated one');
      ids.add(r.id);
      return recordLeaf(r, jobKey);
    });
    const salt = fromHex(doc.salt);
    if (salt.length !== 32) return fail('the salt is not 32 bytes');
    leaves.push(leaf(salt));
    const root = toHex(merkleRoot(leaves));
    const want = String(anchorRoot).toLowerCase();
    if (root !== want) return fail(`the records hash to ${root}, the job's anchor root is ${want}`);
    if (String(doc.root).toLowerCase() !== want) return fail(`the document names root ${doc.root}`);
    const of = payouts > 0 ? ` (${payouts} payouts by the escrow's leaf rule)` : '';
    return { ok: true, message: `Verified: the ${doc.records.length} records${of} and the salt hash to the anchor root ${root}.` };
  } catch (e) {
    return fail(e.message);
  }
}
