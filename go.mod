module github.com/wormcheck/wormcheck

go 1.26

require (
	github.com/chromedp/chromedp v0.14.2
	github.com/emirpasic/gods/v2 v2.0.0-alpha
	github.com/google/gopacket v1.1.19
	github.com/leanovate/gopter v0.2.11
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
)

require (
	github.com/chromedp/cdproto v0.0.0-20250724212937-08a3db8b4327 // indirect
	github.com/chromedp/sysutil v1.1.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20250725192818-e39067aee2d2 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	github.com/gobwas/ws v1.4.0 // indirect
	golang.org/x/net v0.8.0 // indirect
	golang.org/x/sys v0.34.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
