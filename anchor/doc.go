// Package anchor makes a verifiable snapshot of a closed job: a canonical
// JSON document of every record the outcome was based on, a keccak256
// Merkle root over those records and a random salt, proofs of single
// records, and the onchain receipt of the root's posting (operator only,
// recorded once).
//
// Anyone holding the snapshot document and the root posted onchain can
// re-derive the root and so prove exactly what a job's outcome was based
// on. The rules below are schema version 1 (SchemaVersion).
//
// # Document
//
// The snapshot document is one JSON object canonicalised with RFC 8785
// (JCS: no whitespace, object members sorted by their UTF-16 code units,
// numbers in ECMAScript form, minimal string escaping):
//
//	{"created_at":"2026-11-23T05:00:00.000Z","job_id":"<job id>",
//	 "records":[<record>,...],"root":"0x<64 hex>","salt":"0x<64 hex>",
//	 "schema_version":1}
//
// The document is stored when the job closes and served byte for byte;
// its "root" and "salt" equal the job's anchor_root and anchor_salt. Every
// record is a JSON object with a unique string "id" and a "type"; since the
// document is canonical, each element of "records" is itself in canonical
// form. The service writes these records (times are RFC 3339 UTC strings,
// optional values null, money an exact decimal string of micro-USDC):
//
//	job         {"id":"job:<id>","type":"job","job_id","title","prompt","tags",
//	             "bounty_micro_usdc","sponsor_address","status","winner_submission_id",
//	             "created_at","closed_at","final_vote_starts_at","final_vote_ends_at"}
//	jury        {"id":"jury:<job id>","type":"jury","job_id","jury_mode","jury_size",
//	             "jury_commit_ends_at","jury_reveal_ends_at","algorithm","seed",
//	             "seed_source","seed_block","eligible_version","eligible_count",
//	             "eligible_stake_micro_usdc","eligible_set_hash",
//	             "panel":[{"address","stake_micro_usdc"},...]}
//	submission  {"id":"submission:<id>","type":"submission","submission_id","job_id",
//	             "agent_address","content","evidence":[...],"created_at"}
//	vote        {"id":"vote:<id>","type":"vote","vote_id","job_id","submission_id",
//	             "voter_address","weight","review","created_at"}
//	final_vote  {"id":"final_vote:<id>","type":"final_vote","final_vote_id","job_id",
//	             "submission_id","voter_address","created_at"}
//	comment     {"id":"comment:<id>","type":"comment","comment_id","target_type",
//	             "target_id","parent_id","author_address","content","deleted",
//	             "created_at","deleted_at"}
//
// A funded job's snapshot (docs/rules.md#escrow-and-payouts) also holds
// one payout record per recipient and is of schema version 2
// (SchemaVersionPayouts); a job without payouts stays version 1:
//
//	payout      {"id":"payout:<recipient>","type":"payout","job_key":"0x<64 hex>",
//	             "recipient","amount_micro_usdc":"<decimal>","roles":["winner"|"juror"|"platform",...]}
//
// job_key is JobKey(job_id). A version 1 document has no payout record and
// a version 2 document at least one; verifiers refuse anything else.
//
// Each evidence item is {"type","source_url","retrieved_at","snapshot_uri",
// "snapshot_hash","quote","claim","confidence","metadata"}, every member
// present (null when not given); a vote's "review" is its object or null;
// "weight" is an integer.
//
// A comment on the job or on one of its submissions is a record; a deleted
// comment keeps its ids and times but has no "content" member. Jury and
// final votes are the current ones (one per voter); in a commit-reveal
// job, the revealed ones. A job with jury settings (a commit-reveal jury or
// a drawn panel) has one jury record, right after the job's: its panel in
// draw order and the inputs anyone re-derives the draw from (the fields
// of a draw are null without a panel; a draw still waiting for its seed
// block at the close has no seed and an empty panel). Its record id is
// named in full: a bare job id names the job record.
//
// # Leaves and tree
//
// The leaf of a record is keccak256(keccak256(r)), r being the record's
// canonical JSON bytes (its element of "records", as served), except a
// payout record's, which is PayoutLeaf(job_key, recipient,
// amount_micro_usdc) = keccak256(keccak256(abi.encode(bytes32, address,
// uint256))), the leaf the bounty escrow's claim verifies (RecordLeaf). The salt is
// one more leaf, keccak256(keccak256(s)), s being its 32 raw bytes; its
// record id is "salt" (SaltRecordID). Hashing twice is OpenZeppelin's
// recommendation: a leaf can then never be mistaken for an inner node.
// In Solidity: keccak256(bytes.concat(keccak256(data))); for the salt,
// keccak256(bytes.concat(keccak256(abi.encode(salt)))).
//
// The tree is built over the leaves sorted in ascending byte order: each
// level pairs nodes 0 and 1, 2 and 3, and so on, and an odd last node moves
// up unchanged. A pair is hashed as keccak256(a ‖ b) with the smaller
// 32-byte node first (commutative, "sorted-pair" hashing). The top node is
// the root. A proof is the list of sibling nodes from the leaf up, exactly
// what OpenZeppelin's MerkleProof.verify(proof, root, leaf) and
// processProof take; Verify and ProcessProof are their Go equivalents.
//
// Build makes a whole snapshot in memory (the reference of these rules;
// Snapshot.Proofs gives every proof). The service never holds a whole
// snapshot: a close streams the records, canonicalised one at a time with
// CanonicalRecord, into its store with the tree level by level (NextLevel)
// and where each record's leaf is, and serves them back the same way: the
// document as DocumentFrame's prefix and suffix around the stored records
// (Service.OpenDocument streams it, byte for byte what Build gives), a
// proof as the nodes at ProofPath's positions, O(log n) stored nodes
// whatever the size of the job (Service.Proof). A bare object id (the part
// of a record id after "<type>:", RecordTypes) names the one record that
// carries it. VerifyReader checks a document of any size as a stream
// (ScanDocument), holding only its leaves.
//
// # Receipts
//
// The root is posted onchain with the anchor registry's
// postAnchor(root, uri, schemaVersion, salt), which emits AnchorPosted. An
// operator records that transaction as the job's receipt (Service.
// RecordReceipt): once; the same values again are accepted, different
// ones are a Conflict. A ReceiptChecker, when configured, checks the
// receipt against the chain first.
package anchor
