// Package search is OpenJury's semantic search: which documents are
// indexed (jobs, submissions, comments that are not deleted, posts), the
// query rules of GET /api/v1/search/semantic, the Embedder port with the
// built-in Local embedder, the in-memory vector Index every replica keeps,
// and the indexing pipeline around them.
//
// Writes never wait for an embedder: a marketplace write records a pending
// document in its own transaction (an outbox row). An Indexer (a worker
// several replicas may run at once) takes pending documents in batches in
// two steps: the lexical step stores their text in the database's
// full-text index (Texts), one transaction per batch, and never waits on
// the embedder; the vector step (the store leases its rows) embeds them
// and stores their vectors with a change sequence in the database, so a
// restart or a new replica never re-embeds.
// A Follower on every replica loads the stored vectors at start and then
// polls the change sequence, so a new, changed or deleted document shows
// in (or leaves) every replica's results within a poll interval plus the
// indexing time.
//
// The package imports no adapter: storage is the Store port (implemented
// by bunstore), remote embedders live in search/openai.
package search
