// Package web is the companion web app: server-rendered html/template pages
// over the same domain services as the JSON API (never HTTP to itself), with
// templates embedded so that `go run ./host` needs no build step.
package web
