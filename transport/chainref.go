package transport

import (
	"strings"

	"github.com/openjury/openjury"
)

// chainRefRequest holds the optional onchain receipt fields of a request
// body (stake_*, close_*, or unprefixed for slashes). Null or absent means
// not given.
type chainRefRequest struct {
	TxHash      *string
	ChainID     *int64
	Contract    *string
	BlockNumber *int64
	LogIndex    *int64
}

// parse checks the hash and address parts, naming the fields with prefix
// ("stake_tx_hash", "close_contract_address", "tx_hash"). The numbers are
// checked by the domain.
func (c chainRefRequest) parse(prefix string) (openjury.ChainRef, error) {
	ref := openjury.ChainRef{ChainID: c.ChainID, BlockNumber: c.BlockNumber, LogIndex: c.LogIndex}
	if c.TxHash != nil {
		h, err := openjury.ParseHash(prefix+"tx_hash", strings.TrimSpace(*c.TxHash))
		if err != nil {
			return openjury.ChainRef{}, err
		}
		ref.TxHash = h
	}
	if c.Contract != nil {
		a, err := openjury.ParseAddress(prefix+"contract_address", strings.TrimSpace(*c.Contract))
		if err != nil {
			return openjury.ChainRef{}, err
		}
		ref.Contract = a
	}
	return ref, nil
}

// chainRefJSON is the response form of a ChainRef's parts: null when not
// known.
type chainRefJSON struct {
	TxHash      *string
	ChainID     *int64
	Contract    *string
	BlockNumber *int64
	LogIndex    *int64
}

func newChainRefJSON(r openjury.ChainRef) chainRefJSON {
	return chainRefJSON{
		TxHash:      optString(r.TxHash.String()),
		ChainID:     r.ChainID,
		Contract:    optString(r.Contract.String()),
		BlockNumber: r.BlockNumber,
		LogIndex:    r.LogIndex,
	}
}

// optAddress is nil for the zero address, else its lowercase form.
func optAddress(a openjury.Address) *string { return optString(a.String()) }
