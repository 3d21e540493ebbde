// OpenJury companion app: a progressive enhancement of the server-rendered
// pages, which work without it except for browser-wallet sign-in.
// - Sign-in: wallets announced through EIP-6963 (several at once: the person
//   chooses; window.ethereum when none announces itself) sign the SIWE
//   challenge of the JSON API; the bearer token is handed at once to
//   POST /app/session, which keeps it in an HttpOnly cookie (this script
//   never stores it).
// - Relative times kept fresh, copy buttons for addresses and the sign-in
//   message, one more evidence row without a
//   round trip, focus on a form's error summary, and the anchor's "verify"
//   button (static/verify.js).
// - Escrow: a payout's "claim" button sends BountyEscrow.claim from the
//   browser's wallet (eth_sendTransaction), with the proof the API serves.
// - Jury: a commit-reveal job's commit form is computed here and its salt
//   kept in this browser until the reveal (static/jury.js).
import { verifySnapshot } from './verify.js';
import { keccak256, toHex, fromHex } from './keccak.js';
import { juryForms } from './jury.js';

const $ = (s, el = document) => el.querySelector(s);
const $$ = (s, el = document) => [...el.querySelectorAll(s)];
// The JSON API's base URL: the app's own origin unless it lives elsewhere.
const apiBase = document.body.dataset.api || '';

// relative keeps "5 minutes ago" true while the page stays open, with the
// exact local time on hover.
function relative() {
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const units = [['day', 86400], ['hour', 3600], ['minute', 60]];
  const update = () => {
    for (const el of $$('time[datetime]')) {
      const t = Date.parse(el.getAttribute('datetime'));
      if (Number.isNaN(t)) continue;
      const diff = (t - Date.now()) / 1000;
      if (Math.abs(diff) > 60 * 86400) continue;
      if (Math.abs(diff) < 45) { el.textContent = 'just now'; continue; }
      const [unit, secs] = units.find(([, s]) => Math.abs(diff) >= s * 0.75) || units[2];
      el.textContent = rtf.format(Math.round(diff / secs), unit);
    }
  };
  for (const el of $$('time[datetime]')) {
    const t = new Date(el.getAttribute('datetime'));
    if (!Number.isNaN(t.getTime())) el.title = `${t.toLocaleString()} (${el.title})`;
  }
  setInterval(update, 30000);
}

function copyButtons() {
  for (const b of $$('.copy, .copy-text')) {
    b.hidden = false;
    b.addEventListener('click', async () => {
      const text = b.dataset.copy ?? $(`#${b.dataset.copyFrom}`)?.value ?? '';
      try {
        await navigator.clipboard.writeText(text);
        b.classList.add('done');
        const label = b.querySelector('.vh') || b;
        const before = label.textContent;
        label.textContent = 'Copied';
        setTimeout(() => { label.textContent = before; b.classList.remove('done'); }, 1500);
      } catch {
        // Without clipboard access the text stays selectable on the page.
      }
    });
  }
}

// moreEvidence adds an evidence row in the page; the button's form post
// (the server adds the row) is the fallback without this script.
function moreEvidence() {
  const button = $('#more-evidence');
  if (!button) return;
  button.addEventListener('click', (e) => {
    const rows = $$('.ev-row');
    if (!rows.length || rows.length >= 50) return;
    e.preventDefault();
    const i = rows.length;
    const row = rows[rows.length - 1].cloneNode(true);
    row.dataset.row = String(i);
    row.querySelector('legend').textContent = `Item ${i + 1}`;
    for (const el of $$('[id]', row)) el.id = el.id.replace(/-\d+$/, `-${i}`);
    for (const el of $$('label[for]', row)) el.htmlFor = el.htmlFor.replace(/-\d+$/, `-${i}`);
    for (const el of $$('input, textarea', row)) { el.value = ''; el.removeAttribute('aria-invalid'); el.removeAttribute('aria-describedby'); }
    for (const el of $$('select', row)) el.selectedIndex = 0;
    for (const el of $$('.field-error', row)) el.remove();
    button.before(row);
    row.querySelector('input').focus();
  });
}

async function call(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || `the server answered ${res.status}`);
  return data;
}

const utf8Hex = (s) => '0x' + [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, '0')).join('');

// walletError words a wallet's refusal (EIP-1193 error codes).
function walletError(e) {
  if (e?.code === 4001) return 'You declined the request in your wallet. Nothing was signed.';
  if (e?.code === -32002) return 'Your wallet already has a request waiting: open the wallet to answer it.';
  if (e?.code === 4100) return 'Your wallet did not allow this site: unlock it and connect this site, then try again.';
  return `Sign-in failed: ${e?.message || e}`;
}

async function signInWith(provider, name, status, next) {
  status.textContent = `Asking ${name} for your address…`;
  const [address] = await provider.request({ method: 'eth_requestAccounts' });
  if (!address) throw new Error('the wallet gave no address');
  const ch = await call(`${apiBase}/api/v1/agents/auth/challenge`, { address });
  status.textContent = `Approve the signature request in ${name}…`;
  const signature = await provider.request({ method: 'personal_sign', params: [utf8Hex(ch.message_to_sign), address] });
  status.textContent = 'Checking the signature…';
  const v = await call(`${apiBase}/api/v1/agents/auth/verify`, { address, signature, nonce: ch.nonce });
  await call('/app/session', { token: v.access_token });
  const to = new URL(next || '/', location.origin);
  if (to.origin !== location.origin) to.href = location.origin + '/';
  to.searchParams.set('ok', 'signedin');
  location.assign(to.pathname + to.search);
}

// walletChooser lists the browser's wallets on the sign-in page: every
// EIP-6963 announcement is a button; without any, window.ethereum is one.
function walletChooser() {
  const list = $('#wallets');
  if (!list) return;
  const status = $('#wallet-status');
  const note = $('#wallets-note');
  const next = list.dataset.next || '/';
  note.textContent = 'Looking for wallets in this browser…';
  const found = new Map();
  const add = (key, name, icon, provider) => {
    if (found.has(key)) return;
    found.set(key, provider);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'btn wallet-btn';
    b.dataset.wallet = name;
    if (typeof icon === 'string' && icon.startsWith('data:image/')) {
      const img = document.createElement('img');
      img.src = icon;
      img.alt = '';
      b.append(img);
    }
    b.append(`Sign in with ${name}`);
    b.addEventListener('click', () => {
      for (const other of $$('.wallet-btn')) other.disabled = true;
      signInWith(provider, name, status, next).catch((e) => {
        status.textContent = walletError(e);
        for (const other of $$('.wallet-btn')) other.disabled = false;
      });
    });
    list.append(b);
    note.textContent = found.size > 1 ? 'Several wallets are installed: choose the one that holds your address.' : 'Choose your wallet:';
  };
  window.addEventListener('eip6963:announceProvider', (e) => {
    const { info, provider } = e.detail || {};
    if (info?.uuid && provider?.request) add(info.uuid, String(info.name || 'wallet'), info.icon, provider);
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  setTimeout(() => {
    if (found.size) return;
    if (window.ethereum?.request) add('legacy', 'your browser wallet', null, window.ethereum);
    else note.textContent = 'No browser wallet was found in this browser. Install one, or sign in with any wallet or tool (the other way on this page).';
  }, 500);
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

// claimButtons shows each unclaimed payout's claim button once a browser
// wallet is found (EIP-6963, else window.ethereum) and sends the claim
// from it.
function claimButtons() {
  const buttons = $$('button.claim');
  const out = $('#claim-result');
  if (!buttons.length || !out) return;
  let wallet = null;
  const use = (p) => {
    if (wallet || !p?.request) return;
    wallet = p;
    for (const b of buttons) b.hidden = false;
  };
  window.addEventListener('eip6963:announceProvider', (e) => use(e.detail?.provider));
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  use(window.ethereum);
  for (const b of buttons) {
    b.addEventListener('click', async () => {
      out.textContent = 'Preparing the claim…';
      out.className = 'claim-result';
      try {
        const q = new URLSearchParams({ recipient: b.dataset.recipient });
        const res = await fetch(`${apiBase}/api/v1/jobs/${encodeURIComponent(b.dataset.job)}/payouts?${q}`);
        const p = await res.json();
        if (!res.ok) throw new Error(p.detail || `HTTP ${res.status}`);
        const po = p.payouts[0];
        if (!po) throw new Error('no such payout');
        if (!p.escrow_contract_address) throw new Error('this server follows no escrow contract');
        if (po.claimed) throw new Error('it is already claimed');
        const [from] = await wallet.request({ method: 'eth_requestAccounts' });
        const data = claimCalldata(p.job_key, p.sponsor_address, po.recipient, po.amount_micro_usdc, po.proof);
        fromHex(data); // well-formed
        out.textContent = 'Confirm the transaction in your wallet…';
        const tx = await wallet.request({ method: 'eth_sendTransaction', params: [{ from, to: p.escrow_contract_address, data }] });
        out.textContent = `Claim sent: ${tx}. It shows here as claimed once the chain has confirmed it.`;
        out.className = 'claim-result verified';
        b.disabled = true;
      } catch (e) {
        out.textContent = e?.code === 4001 ? 'You declined the transaction in your wallet. Nothing was sent.' : `Claim not sent: ${e?.message || e}`;
        out.className = 'claim-result unverified';
      }
    });
  }
}

relative();
copyButtons();
moreEvidence();
walletChooser();
verifyButton();
claimButtons();
juryForms($('#who')?.dataset.address);
$('#problem')?.focus();
