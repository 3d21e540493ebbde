// Package ethchain is OpenJury's go-ethereum adapter: one Client over a
// JSON-RPC endpoint that satisfies the chain ports of the domain,
// auth.ContractVerifier (EIP-1271 isValidSignature) and stake.Vault (head,
// stake-vault events, stakeOf at a block), and reads anchor receipts
// (AnchorPosted); ReceiptChecker is the anchor.ReceiptChecker that checks
// a receipt against the chain before it is recorded. Every call has a timeout; failures to reach the node are
// openjury Unavailable (503), and the RPC URL, which may hold a provider
// key, never appears in an error. With Options.ChainID the node must serve
// that chain (CheckChainID at start; checked again before the first call
// otherwise). isValidSignature is asked only of an address with code,
// with a gas cap (SignatureGas), and only the exact 32-byte magic word is
// a yes.
package ethchain
