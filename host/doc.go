// Command host is OpenJury's server binary: it reads the configuration
// from SERVICE_* environment variables (server.Load), builds the service
// (server.New) and serves HTTP until SIGINT or SIGTERM, then shuts down
// gracefully (server.Server.Run). The wiring lives in package server, so
// the test kit and embedders build the same thing.
//
//	go run ./host                      # local development mode: SQLite in ./data/openjury.db,
//	                                   # http://localhost:8080 on loopback only, dev endpoints open
//	SERVICE_ADDR=:8080 go run ./host   # every interface; dev endpoints need SERVICE_DEV_SECRET
//	SERVICE_ADDR=:0 go run ./host      # any free port; the address is printed
//
// With none of SERVICE_ADDR, SERVICE_BASE_URL and SERVICE_DEV_SECRET set
// (and SERVICE_DEV_MODE not 0) the host runs in local development mode
// (see server.Config.LocalDev): it listens on 127.0.0.1:8080 (and
// [::1]:8080) only and its dev endpoints need no secret, so a new user can
// stake, submit and close a job with the openjury command alone.
//
// An invalid configuration (or a chain node serving another chain) makes
// it exit with status 2 after listing every problem on stderr; any other
// failure exits with status 1. Logs are JSON lines on stderr; stdout tells
// a person what the start does: the database's migration progress, the
// "listening on" lines, "OpenJury is running at URL/" and, in local
// development mode, what it turns on.
package main
