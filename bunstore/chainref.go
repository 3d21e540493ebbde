package bunstore

import "github.com/openjury/openjury"

// chainRefCols are the columns of an openjury.ChainRef, embedded in a row
// struct with a column name prefix (bun:"embed:<prefix>"). Unset parts are
// stored as NULL.
type chainRefCols struct {
	TxHash          string `bun:"tx_hash,nullzero"`
	ChainID         *int64 `bun:"chain_id"`
	ContractAddress string `bun:"contract_address,nullzero"`
	BlockNumber     *int64 `bun:"block_number"`
	LogIndex        *int64 `bun:"log_index"`
}

// toChainRefCols returns the columns of ref; the pointers are copies.
func toChainRefCols(ref openjury.ChainRef) chainRefCols {
	return chainRefCols{
		TxHash:          string(ref.TxHash),
		ChainID:         copyInt(ref.ChainID),
		ContractAddress: string(ref.Contract),
		BlockNumber:     copyInt(ref.BlockNumber),
		LogIndex:        copyInt(ref.LogIndex),
	}
}

// ref reads the columns back.
func (c chainRefCols) ref() openjury.ChainRef {
	return openjury.ChainRef{
		TxHash:      openjury.Hash(c.TxHash),
		ChainID:     c.ChainID,
		Contract:    openjury.Address(c.ContractAddress),
		BlockNumber: c.BlockNumber,
		LogIndex:    c.LogIndex,
	}
}

func copyInt(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
