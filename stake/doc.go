// Package stake holds stake requirements, stake status and eligibility, and
// slashing records.
//
// Stake comes from the database: set by the dev endpoint or, with onchain
// stake enabled, by the stake-vault sync. Eligible is the one eligibility
// rule that submissions and jury votes share. Storage is behind Store.
package stake
