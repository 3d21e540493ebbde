package transport

import (
	"strings"

	"github.com/openjury/openjury"
)

// chainRefFields are the optional onchain receipt fields of a request or
// response body (stake_*, close_*, or unprefixed for slashes); nil is null
// or absent. The DTOs name them with their prefix; parse and
// newChainRefFields convert them from and to an openjury.ChainRef.
type chainRefFields struct {
	TxHash      *string
	ChainID     *int64
	Contract    *string
	BlockNumber *int64
	LogIndex    *int64
}

// parse checks the hash and address parts, naming the fields with prefix
// ("stake_tx_hash", "close_contract_address", "tx_hash"). The numbers are
// checked by the domain.
func (c chainRefFields) parse(prefix string) (openjury.ChainRef, error) {
	ref := openjury.ChainRef{ChainID: c.ChainID, BlockNumber: c.BlockNumber, LogIndex: c.LogIndex}
	if c.TxHash != nil {
		h, err := openjury.ParseHash(prefix+"tx_hash", strings.TrimSpace(*c.TxHash))
		if err != nil {
			return openjury.ChainRef{}, err
		}
		ref.TxHash = h
	}
	if c.Contract != nil {
		a, err := openjury.ParseAddress(prefix+"contract_address", *c.Contract) // never trimmed
		if err != nil {
			return openjury.ChainRef{}, err
		}
		ref.Contract = a
	}
	return ref, nil
}

// newChainRefFields gives the parts of r, nil where not known.
func newChainRefFields(r openjury.ChainRef) chainRefFields {
	return chainRefFields{
		TxHash:      optString(r.TxHash.String()),
		ChainID:     r.ChainID,
		Contract:    optString(r.Contract.String()),
		BlockNumber: r.BlockNumber,
		LogIndex:    r.LogIndex,
	}
}

// optAddress is nil for the zero address, else its lowercase form.
func optAddress(a openjury.Address) *string { return optString(a.String()) }
