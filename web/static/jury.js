// Commit-reveal jury votes in the browser: the commit form's commitment is
// computed here, from the chosen submission and a fresh random salt, and
// the choice and salt are kept in this browser's localStorage (never sent
// before the reveal) to fill the reveal form later
// (docs/rules.md, "Jury integrity").
import { keccak256, toHex, fromHex } from './keccak.js';

const utf8 = (s) => new TextEncoder().encode(s);

// commitmentOf is keccak256(abi.encode(bytes32 keccak256(jobID), bytes32
// keccak256(submissionID), address voter, bytes32 salt)).
export function commitmentOf(jobID, submissionID, voter, saltHex) {
  const words = new Uint8Array(128);
  words.set(keccak256(utf8(jobID)), 0);
  words.set(keccak256(utf8(submissionID)), 32);
  words.set(fromHex(voter), 64 + 12);
  words.set(fromHex(saltHex), 96);
  return toHex(keccak256(words));
}

// newSalt is 32 random bytes as 0x + hex.
export function newSalt() {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return toHex(b);
}

const key = (jobID, voter) => `openjury-commit:${jobID}:${voter.toLowerCase()}`;

// juryForms wires the commit and reveal forms of a job page for the
// signed-in voter. The commitment is computed whenever the choice changes
// (so the form is valid before it is sent) with a salt made for this page;
// on sending, the choice and salt are kept as pending, and become the
// saved ones only once the server took the commitment (the page it
// redirects to says ok=committed): a refused commitment never replaces
// the one to reveal.
export function juryForms(voter) {
  const panel = document.querySelector('#jury-panel');
  if (!panel || !voter) return;
  const jobID = panel.dataset.job;
  const saved = key(jobID, voter);
  const pending = `${saved}:pending`;
  if (new URLSearchParams(location.search).get('ok') === 'committed' && localStorage.getItem(pending)) {
    localStorage.setItem(saved, localStorage.getItem(pending));
    localStorage.removeItem(pending);
  }
  const commit = document.querySelector('#commit');
  if (commit) {
    const choice = commit.querySelector('#commit-choice');
    const out = commit.querySelector('#commitment');
    const salt = newSalt();
    const fill = () => { if (choice.value) out.value = commitmentOf(jobID, choice.value, voter, salt); };
    fill();
    choice.addEventListener('change', fill);
    commit.addEventListener('submit', () => {
      fill();
      localStorage.setItem(pending, JSON.stringify({ submission_id: choice.value, salt, commitment: out.value }));
    });
  }
  const reveal = document.querySelector('#reveal');
  const kept = JSON.parse(localStorage.getItem(saved) || 'null');
  if (reveal) {
    const note = reveal.querySelector('#reveal-note');
    if (!kept) {
      note.textContent = 'This browser kept no commitment for this job: fill in the submission and salt you committed with.';
      return;
    }
    const sel = reveal.querySelector('#reveal-submission');
    if (![...sel.options].some((o) => o.value === kept.submission_id)) {
      const o = document.createElement('option');
      o.value = kept.submission_id;
      o.textContent = `The submission you committed to (${kept.submission_id})`;
      sel.append(o);
    }
    sel.value = kept.submission_id;
    const s = reveal.querySelector('#reveal-salt');
    if (!s.value) s.value = kept.salt;
    note.textContent = 'Filled in with the choice and salt this browser kept when you committed.';
  }
}
