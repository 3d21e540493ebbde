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
// signed-in voter.
export function juryForms(voter) {
  const panel = document.querySelector('#jury-panel');
  if (!panel || !voter) return;
  const jobID = panel.dataset.job;
  const commit = document.querySelector('#commit-form');
  if (commit) {
    commit.addEventListener('submit', () => {
      const choice = commit.querySelector('#commit-choice').value;
      const salt = newSalt();
      commit.querySelector('#commitment').value = commitmentOf(jobID, choice, voter, salt);
      localStorage.setItem(key(jobID, voter), JSON.stringify({ submission_id: choice, salt }));
    });
  }
  const reveal = document.querySelector('#reveal-form');
  const saved = JSON.parse(localStorage.getItem(key(jobID, voter)) || 'null');
  if (reveal && saved) {
    reveal.querySelector('#reveal-submission').value = saved.submission_id;
    reveal.querySelector('#reveal-salt').value = saved.salt;
  }
}
