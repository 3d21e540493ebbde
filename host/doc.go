// Command host is OpenJury's thin server binary: it reads the configuration
// from SERVICE_* environment variables (see Config), opens the database
// through bunstore, wires the auth, marketplace, stake and AGR services
// into the transport handler and serves HTTP until SIGINT or SIGTERM, then shuts
// down gracefully.
//
//	go run ./host                      # SQLite in ./data/openjury.db on :8080
//	SERVICE_ADDR=:0 go run ./host      # any free port; the address is printed
//
// An invalid configuration makes it exit with status 2 after listing every
// problem on stderr; any other failure exits with status 1. Logs are JSON
// lines on stderr; the "listening on" line also goes to stdout.
package main
