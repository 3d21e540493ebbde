// OpenJury companion app: a progressive enhancement of the server-rendered
// pages. Countdown of the final-vote window; sign-in with an injected wallet
// (EIP-1193): the SIWE challenge is signed and verified through the JSON API,
// and the bearer token is handed at once to POST /app/session, which keeps
// it in an HttpOnly cookie (this script never stores it). The actions are
// plain HTML forms carrying a CSRF token and work without this script; the
// anchor's "verify" button checks the snapshot document in the browser;
// a commit-reveal job's commit form is computed here (jury.js).
import { verifySnapshot } from './verify.js';
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

countdowns();
verifyButton();
juryForms(document.querySelector('#who a')?.textContent.trim());
const signin = $('#signin');
if (signin && window.ethereum) {
  signin.hidden = false;
  signin.addEventListener('click', () => signIn().catch((e) => { $('#who').textContent = `Sign-in failed: ${e.message}`; }));
}
