module github.com/dagq/dagq

go 1.26

require honnef.co/go/js/dom/v2 v2.0.0-20231112215516-51f43a291193

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/chromedp/chromedp v0.23.0 // indirect
	github.com/dominikbraun/graph v0.23.0 // indirect
	github.com/emirpasic/gods v1.18.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/uuid v1.3.0 // indirect
	github.com/heimdalr/dag v1.5.0 // indirect
	github.com/nulab/autog v0.11.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
