// Package server is the OpenJury host as a type: the wiring of the whole
// service from its settings, which the binary (./host), the test kit
// (openjurytest.NewServer) and embedders all build.
//
// Config holds every setting, with the binary's SERVICE_* environment
// variables (docs/operations.md#configuration): Defaults, FromEnv(getenv),
// Load (FromEnv and Validate together) and Validate, which reports every
// problem at once in a *ConfigError. New opens and migrates the database,
// checks the chain node, and wires the auth, marketplace, stake, AGR,
// anchor and search services into the HTTP handler (the API, with the web
// app on every other path). Handler returns that handler for a server of
// your own; Start runs the background work (search indexer and follower,
// the cleanup loop, the stake-vault sync); Run listens on Config.Addr,
// serves and shuts down gracefully when its context ends; Close stops the
// work and closes the database.
//
// Options bring parts of your own: a clock (WithClock), a logger
// (WithLogger, WithOutput), a metrics registry (WithRegistry), a search
// embedder (WithEmbedder, WithSearchPoll) and the chain ports
// (WithContractVerifier, WithReceiptChecker, WithStakeVault) in place of
// the node at Config.RPCURL. Example_embedding mounts the service beside
// routes of one's own (docs/architecture.md#embedding).
package server
