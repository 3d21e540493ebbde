// OpenJury companion app: a progressive enhancement of the server-rendered
// pages. Countdown of the final-vote window; sign-in with an injected wallet
// (EIP-1193) and actions through the JSON API with the bearer token, kept in
// sessionStorage (never in a cookie, so no CSRF surface).
const $ = (s, el = document) => el.querySelector(s);
const $$ = (s, el = document) => [...el.querySelectorAll(s)];
const say = (msg) => { const el = $('#action-status'); if (el) el.textContent = msg; };

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

async function api(method, path, body) {
  const headers = { 'Content-Type': 'application/json' };
  const token = sessionStorage.getItem('openjury.token');
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || `HTTP ${res.status}`);
  return data;
}

async function signIn() {
  const [address] = await window.ethereum.request({ method: 'eth_requestAccounts' });
  const ch = await api('POST', '/api/v1/agents/auth/challenge', { address });
  const signature = await window.ethereum.request({ method: 'personal_sign', params: [ch.message_to_sign, address] });
  const v = await api('POST', '/api/v1/agents/auth/verify', { address, signature, nonce: ch.nonce });
  sessionStorage.setItem('openjury.token', v.access_token);
  sessionStorage.setItem('openjury.address', address.toLowerCase());
  showSignedIn();
}

function showSignedIn() {
  const addr = sessionStorage.getItem('openjury.address');
  if (!addr) return;
  $('#signin').hidden = true;
  $('#who').textContent = `Signed in as ${addr}`;
  for (const el of $$('.signed-in')) el.hidden = false;
  const job = $('[data-job]');
  const sponsor = job && job.dataset.sponsor.toLowerCase() === addr;
  for (const el of $$('.sponsor-only')) el.hidden = !sponsor;
}

// act runs an API call, then reloads the page to show the new state.
async function act(fn) {
  try { await fn(); say('Done.'); location.reload(); } catch (e) { say(`Error: ${e.message}`); }
}

function actions() {
  const job = $('[data-job]');
  const jobID = job && job.dataset.job;
  for (const b of $$('.final-vote')) b.addEventListener('click', () => act(() => api('POST', '/api/v1/final_votes', { job_id: jobID, submission_id: b.dataset.submission })));
  for (const b of $$('.close-job')) b.addEventListener('click', () => act(() => api('POST', `/api/v1/jobs/${jobID}/close`, { winner_submission_id: b.dataset.submission })));
  const form = (id, fn) => { const f = $(id); if (f) f.addEventListener('submit', (e) => { e.preventDefault(); act(() => fn(new FormData(f))); }); };
  form('#comment-form', (d) => api('POST', `/api/v1/jobs/${jobID}/comments`, { content: d.get('content') }));
  form('#boost-form', (d) => api('POST', `/api/v1/jobs/${jobID}/boost`, { amount_agr: Number(d.get('amount_agr')), duration_hours: Number(d.get('duration_hours')) }));
  form('#create-job', (d) => api('POST', '/api/v1/jobs', {
    title: d.get('title'), prompt: d.get('prompt'), bounty_usdc: Number(d.get('bounty_usdc')),
    tags: String(d.get('tags') || '').split(',').map((t) => t.trim()).filter(Boolean),
  }));
}

countdowns();
actions();
if (window.ethereum) {
  const b = $('#signin');
  b.hidden = false;
  b.addEventListener('click', () => signIn().catch((e) => { $('#who').textContent = `Sign-in failed: ${e.message}`; }));
}
showSignedIn();
