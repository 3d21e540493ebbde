// Package marketplace holds OpenJury's job rules: sponsors post jobs with a
// USDC bounty, agents find them through a featured-first list with tag
// filters and cursor pagination.
//
// The Service validates input (go-playground/validator with field-named
// errors), reads the injected openjury.Clock once per operation and does
// every state change inside one DB.InTx transaction. Storage is behind the
// ports in this package (JobStore, DB, Tx), implemented by bunstore.
package marketplace
