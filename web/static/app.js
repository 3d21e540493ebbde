// OpenJury companion app: a progressive enhancement of the server-rendered
// pages. Countdown of the final-vote window; sign-in with an injected wallet
// (EIP-1193): the SIWE challenge is signed and verified through the JSON API,
// and the bearer token is handed at once to POST /app/session, which keeps
// it in an HttpOnly cookie (this script never stores it). The actions are
// plain HTML forms carrying a CSRF token and work without this script; the
// anchor's "verify" button checks the snapshot document in the browser; a
// payout's "claim" button sends BountyEscrow.claim from the injected
// wallet (eth_sendTransaction), with the proof the API serves; a
// commit-reveal job's commit form is computed here (jury.js).
import { verifySnapshot } from './verify.js';
import { keccak256, toHex, fromHex } from './keccak.js';
import { juryForms } from './jury.js';

const $ = (s, el = document) => el.querySelector(s);
const $$ = (s, el = document) => [...el.querySelectorAll(s)];
// The JSON API's base URL: the app's own origin unless it lives elsewhere.
const apiBase = document.body.dataset.api || '';

function countdowns() {
  for (const el of $$('.countdown')) {
    const start = Date.parse(el.dataset.start), end = Date.parse(el.dataset.end);
    const tick = () => {
      const now = Date.now();
      const left = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return `${Math.floor(s / 3600)}h ${Math.floor(s / 60) % 60}m ${s % 60}s`; };
      el.textContent = now < start ? `(opens in ${left(start - now)})` : now < end ? `(closes in ${left(end - now)})` : '(closed)';
    };
    tick();
    setInterval(tick, 1000);
  }
}

async function call(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || `HTTP ${res.status}`);
  return data;
}

async function signIn() {
  const [address] = await window.ethereum.request({ method: 'eth_requestAccounts' });
  const ch = await call(`${apiBase}/api/v1/agents/auth/challenge`, { address });
  const signature = await window.ethereum.request({ method: 'personal_sign', params: [ch.message_to_sign, address] });
  const v = await call(`${apiBase}/api/v1/agents/auth/verify`, { address, signature, nonce: ch.nonce });
  await call('/app/session', { token: v.access_token });
  location.reload();
}

function verifyButton() {
  const b = $('#verify-anchor');
  if (!b) return;
  const out = $('#verify-result');
  b.hidden = false;
  b.addEventListener('click', async () => {
    out.textContent = 'Checking…';
    try {
      const res = await fetch(`${apiBase}/api/v1/jobs/${encodeURIComponent(b.dataset.job)}/anchor/snapshot`);
      if (!res.ok) throw new Error(`snapshot: HTTP ${res.status}`);
      const r = verifySnapshot(await res.json(), b.dataset.job, b.dataset.root);
      out.textContent = r.message;
      out.className = r.ok ? 'verified' : 'unverified';
    } catch (e) {
      out.textContent = `Not verified: ${e.message}`;
      out.className = 'unverified';
    }
  });
}

// claimCalldata is the ABI encoding of claim(bytes32 jobKey, address
// sponsor, address recipient, uint256 amount, bytes32[] proof).
export function claimCalldata(jobKey, sponsor, recipient, amount, proof) {
  const selector = toHex(keccak256(new TextEncoder().encode('claim(bytes32,address,address,uint256,bytes32[])'))).slice(2, 10);
  const word = (hex) => hex.replace(/^0x/, '').padStart(64, '0');
  const uint = (v) => BigInt(v).toString(16).padStart(64, '0');
  const words = [word(jobKey), word(sponsor), word(recipient), uint(amount), uint(5 * 32), uint(proof.length), ...proof.map(word)];
  return `0x${selector}${words.join('')}`;
}

function claimButtons() {
  const out = $('#claim-result');
  for (const b of $$('button.claim')) {
    b.hidden = false;
    b.addEventListener('click', async () => {
      out.textContent = 'Preparing the claim…';
      try {
        const q = new URLSearchParams({ recipient: b.dataset.recipient });
        const res = await fetch(`${apiBase}/api/v1/jobs/${encodeURIComponent(b.dataset.job)}/payouts?${q}`);
        const p = await res.json();
        if (!res.ok) throw new Error(p.detail || `HTTP ${res.status}`);
        const po = p.payouts[0];
        if (!po) throw new Error('no such payout');
        if (!p.escrow_contract_address) throw new Error('the server follows no escrow contract');
        if (po.claimed) throw new Error('already claimed');
        const [from] = await window.ethereum.request({ method: 'eth_requestAccounts' });
        const data = claimCalldata(p.job_key, p.sponsor_address, po.recipient, po.amount_micro_usdc, po.proof);
        fromHex(data); // well-formed
        const tx = await window.ethereum.request({ method: 'eth_sendTransaction', params: [{ from, to: p.escrow_contract_address, data }] });
        out.textContent = `Claim sent: ${tx}. It shows here as claimed once the chain has confirmed it.`;
        out.className = 'verified';
        b.disabled = true;
      } catch (e) {
        out.textContent = `Claim not sent: ${e.message}`;
        out.className = 'unverified';
      }
    });
  }
}

countdowns();
verifyButton();
if (window.ethereum) claimButtons();
juryForms(document.querySelector('#who a')?.textContent.trim());
const signin = $('#signin');
if (signin && window.ethereum) {
  signin.hidden = false;
  signin.addEventListener('click', () => signIn().catch((e) => { $('#who').textContent = `Sign-in failed: ${e.message}`; }));
}
