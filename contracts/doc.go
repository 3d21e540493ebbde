// Package contracts holds OpenJury's own Solidity contracts (src/) and their
// generated Go bindings: TestUSDC (a 6-decimals ERC-20 for dev chains, with
// USDC's EIP-3009 transfer/receive with authorization), StakeVault
// (deposit, depositFor, withdraw, slash by SLASHER_ROLE; stakeOf),
// AnchorRegistry (postAnchor, AnchorPosted), BountyEscrow (job bounties: a
// slot per (job key, sponsor) funded by the sponsor, settled by the settler
// with the payouts' Merkle root, claimed by each recipient with a proof,
// refunded to the sponsor), TestWallet (an ERC-1271 contract wallet whose
// owner key signs) and MerkleVerifier (OpenZeppelin's MerkleProof, for
// anchor proofs).
//
// The events and functions the service relies on are the ABIs of
// docs/onchain.md#contracts: any vault, registry or escrow with those
// signatures works with the service, not only these.
//
// build.sh compiles src/ with a pinned solcjs (npm solc) and OpenZeppelin
// Contracts from npm and regenerates build/*.abi, build/*.bin and the
// *_bind.go files with go-ethereum's abigen (v1 bindings); everything is
// committed, so building needs neither node nor solc. The package's tests
// recompile the sources and compare (skipped loudly without solc, failing
// instead when CI is set).
package contracts
